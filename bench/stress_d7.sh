#!/bin/sh
# docs/rules/common.md#always-a-move D-7, issue 8: the long run of the "every awaited seat can act" property.
# One variant × the stress policies (or the ones named), HANDS hands each, through `python -m engine simulate`,
# which checks after every action that each awaited seat has a legal action and a timeout action (also with
# --no-check, which skips only the heavier invariants: tile conservation, hand sizes, view leaks).
# Usage: sh bench/stress_d7.sh HANDS VARIANT [PLAYERS ...] >> bench/results/d7_stress.md
# The recorded run: bench/results/d7_stress.md (the three variants were run side by side).
HANDS=$1
VARIANT=$2
shift 2
PY=${PY:-python}
[ $# -gt 0 ] || set -- claimer nowin declarer konger random table
for players in "$@"; do
  cmd="$PY -m engine simulate --variant $VARIANT --hands $HANDS --seed 8 --players $players --no-check"
  echo "\`\`\`"
  echo "\$ $cmd"
  $cmd 2>&1
  echo "exit $?"
  echo "\`\`\`"
  echo
done

#!/usr/bin/env bash
# Dev-time generator of web/assets/sounds (self-made, CC0): tones synthesised with SoX, the spoken calls
# 吃 / 碰 / 槓 / 胡 / 聽 / 自摸 (Mandarin as said in Taiwan) with espeak-ng.  Needs: apt-get install sox espeak-ng
set -euo pipefail
out="$(dirname "$0")/../assets/sounds"
mkdir -p "$out"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
ogg() { sox "$1" -r 22050 -c 1 -C 2 "$out/$2.ogg"; }
# A tile put down: a short woody knock.
sox -n -r 22050 -c 1 "$tmp/d.wav" synth 0.07 pinknoise fade q 0.002 0.07 0.06 lowpass 1800 gain -4
ogg "$tmp/d.wav" discard
# A claim: two quick rising tones.
sox -n -r 22050 -c 1 "$tmp/c.wav" synth 0.09 sine 660 : synth 0.12 sine 880 fade q 0.005 0.12 0.05 gain -8
ogg "$tmp/c.wav" claim
# A win: a short major arpeggio.
sox -n -r 22050 -c 1 "$tmp/w.wav" synth 0.12 sine 523 : synth 0.12 sine 659 : synth 0.12 sine 784 : synth 0.35 sine 1047 fade q 0.005 0.35 0.2 gain -8
ogg "$tmp/w.wav" win
# The spoken calls (吃, 聽 and 自摸 since issue 26: every call a banner shows is also heard).
for pair in "chow:吃" "pong:碰" "kong:槓" "hu:胡" "ready:聽" "zimo:自摸"; do
  key="${pair%%:*}"; word="${pair#*:}"
  espeak-ng -v cmn -s 150 -p 55 -w "$tmp/$key.wav" "$word"
  sox "$tmp/$key.wav" "$tmp/$key-t.wav" silence 1 0.01 1% reverse silence 1 0.01 1% reverse gain -n -3
  ogg "$tmp/$key-t.wav" "call-$key"
done
ls -l "$out"

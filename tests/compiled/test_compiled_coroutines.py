"""Compiled coroutines behave as plain Python does through errors and cancels (tools/compile_engine.py compiles
the table actor's coroutines; ``mypyc_hazards`` refuses the one shape mypyc is known to get wrong, an await in a
``finally``).  ``coroutine_shapes.py`` holds the actor's shapes; this test builds it with mypyc in a scratch
directory, drives both builds through every scenario (each await in turn answered, failed with a bug, failed
with a lost journal, or cancelled) and compares the traces, each followed by a fresh run that must not see
anything of the one before (the bug mypyc has with an await in a ``finally`` shows exactly there)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent

DRIVER = r'''
import asyncio, itertools, json, sys
import coroutine_shapes as shapes

async def scenario(kind, where, outcome):
    loop = asyncio.get_running_loop()
    trace = []
    futures = [loop.create_future() for _ in range(7)]
    if kind == "actor":
        task = asyncio.create_task(shapes.Actor(trace, shapes.Step(trace)).run(futures))
    else:
        task = asyncio.create_task(shapes.recover(trace, shapes.Step(trace), futures[0], futures[1]))
    for i, future in enumerate(futures):
        for _ in range(2):
            await asyncio.sleep(0)
        if task.done():
            break
        if i == where and outcome == "cancel":
            task.cancel()
            for _ in range(2):
                await asyncio.sleep(0)
            for other in futures:  # let the wind-up finish
                if not other.done():
                    other.set_result(None)
                    await asyncio.sleep(0)
            break
        if i == where and outcome in ("boom", "lost"):
            future.set_exception(shapes.Boom() if outcome == "boom" else shapes.Lost())
        elif not future.done():
            future.set_result(None)
    try:
        trace.append(f"result {await asyncio.wait_for(task, 1)}")
    except BaseException as exc:
        trace.append(f"raised {type(exc).__name__}")
    after = []
    answered = [loop.create_future() for _ in range(7)]
    for future in answered:
        future.set_result(None)
    try:
        trace.append(f"next {await asyncio.wait_for(shapes.Actor(after, shapes.Step(after)).run(answered), 1)}")
    except BaseException as exc:
        trace.append(f"next raised {type(exc).__name__}")
    return trace

async def main():
    out = {}
    for kind, where, outcome in itertools.product(["actor", "recover"], range(7), ["cancel", "boom", "lost", "ok"]):
        out[f"{kind}/{where}/{outcome}"] = await scenario(kind, where, outcome)
    print(json.dumps(out))

asyncio.run(main())
'''


def _traces(directory: Path) -> dict[str, list[str]]:
    done = subprocess.run([sys.executable, "-c", DRIVER], cwd=directory, capture_output=True, text=True,
                          timeout=120, check=True)
    return json.loads(done.stdout)


def test_the_actor_shapes_compiled_behave_as_plain_python(tmp_path: Path) -> None:
    plain, compiled = tmp_path / "plain", tmp_path / "compiled"
    for d in (plain, compiled):
        d.mkdir()
        shutil.copy(HERE / "coroutine_shapes.py", d)
    subprocess.run([sys.executable, "-m", "mypyc", "coroutine_shapes.py"], cwd=compiled, capture_output=True,
                   timeout=300, check=True)
    (compiled / "coroutine_shapes.py").unlink()  # only the extension is left to import
    assert list(compiled.glob("coroutine_shapes.*.so"))
    expected, got = _traces(plain), _traces(compiled)
    # the scenarios reach every path: each kind of end, and every next run is clean
    ends = {trace[-2].split(" ")[0] + " " + trace[-2].split(" ")[-1] for trace in expected.values()}
    assert ends == {"raised CancelledError", "result 3", "result ok", "result recovered"}
    assert {trace[-1] for trace in expected.values()} == {"next 3"}
    assert any("winding up" in t and "drop" in t for t in expected.values())
    assert any("crashed" in t and "game over failed" not in t for t in expected.values())
    for name, trace in expected.items():
        assert got[name] == trace, name

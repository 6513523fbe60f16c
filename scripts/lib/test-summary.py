#!/usr/bin/env python3
"""The end of scripts/test: reads swift test's output (LOG) and prints the issues of failing
tests, then one line `N passed, N failed, N skipped`, then each skip reason with its count.

Swift Testing's lines: "✔ Test NAME passed", "✘ Test NAME failed", "➜ Test NAME skipped: "why""
(a skipped suite says so for itself and for each of its tests; the tests are counted, a
parameterised test once)."""
import re, sys
log = sys.argv[1]
lines = open(log, encoding="utf-8", errors="replace").read().splitlines()
passed = failed = 0
skipped = {}  # reason -> test names
issues = []
for line in lines:
    m = re.match(r'^\S+ Test (.+?)(?: with \d+ test cases?)? (passed|failed) after [\d.]+ seconds', line)
    if m and not m.group(1).startswith("run with"):
        if m.group(2) == "passed":
            passed += 1
        else:
            failed += 1
        continue
    m = re.match(r'^\S+ Test (.+?) skipped(?:: "(.*)")?\.?$', line)
    if m:
        skipped.setdefault(m.group(2) or "no reason given", []).append(m.group(1))
        continue
    if re.match(r'^\S+ Test .+ recorded an issue', line):
        issues.append(line)
# A crash ends the run: say so, and where (the first frame in the tests or the sources), not
# 40 lines of registers.
crash = next((i for i, line in enumerate(lines) if line.startswith("*** Program crashed:")), None)
if crash is not None:
    where = next((re.sub(r'^.*? in \S+ at ', '', l).strip() for l in lines[crash:]
                  if re.search(r' at /\S+/(Tests|Sources)/', l)), None)
    frame = next((re.sub(r'^\s*\d+\s+(\[\w+\]\s+)*0x[0-9a-f]+\s+', '', l).split(" in ")[0] for l in lines[crash:]
                  if re.search(r' at /\S+/(Tests|Sources)/', l)), None)
    print(f"test: the test process crashed ({lines[crash].strip('* ').rstrip(' *')})"
          + (f" in {frame} at {where}" if where else "") + f"; the rest did not run (the whole output: {log})")
    print("  (a bad pointer right after a merge is often stale objects: rm -rf .build/*/debug, then build again)")
elif passed == failed == 0 and not skipped:
    print("test: swift test ran no tests (a build error?); the end of " + log + ":")
    print("\n".join(lines[-40:]))
for line in issues[:40]:
    print(line)
if len(issues) > 40:
    print(f"... and {len(issues) - 40} more issues in {log}")
print(f"{passed} passed, {failed} failed, {sum(len(n) for n in skipped.values())} skipped")
for reason, names in sorted(skipped.items(), key=lambda g: -len(g[1])):
    print(f"  {len(names)} skipped: {reason}")

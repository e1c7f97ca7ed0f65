#!/usr/bin/env python3
"""kta validate's JSON as a Markdown table: one row per task, one column per check.

  table.py VALIDATE.json
Cells: pass, warn, FAIL, skip. Below the table, every warn and FAIL with its reason.
"""
import json
import sys

ABBREV = {"pass": "pass", "warn": "warn", "fail": "FAIL", "skip": "skip"}


def main():
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    rows = doc["validations"]
    if not rows:
        print("no task validated")
        return
    checks = [c["check"] for c in rows[0]["checks"]]
    print("| task | s | " + " | ".join(checks) + " |")
    print("|---|---:|" + "---|" * len(checks))
    notes = []
    for v in rows:
        cells = {c["check"]: c for c in v["checks"]}
        line = [f'{v["kind"]}/{v["task"]}', f'{v["seconds"]:.1f}']
        for name in checks:
            c = cells.get(name)
            line.append(ABBREV.get(c["outcome"], "?") if c else "")
            if c and c["outcome"] in ("warn", "fail"):
                notes.append(f'- {v["task"]} {name} ({c["outcome"]}): {c["reason"]}')
        print("| " + " | ".join(line) + " |")
    print(f'\n{doc["tasks"]} tasks, {doc["failed"]} failed, {doc["seconds"]:.1f} s validating '
          f'on {doc["device"]}')
    if notes:
        print()
        print("\n".join(notes))


if __name__ == "__main__":
    main()

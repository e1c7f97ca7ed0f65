"""Where each step of a `kta eval` run spent its time: the wall time of every step and the
phases the engine recorded for it (payload "profile" in results.db).
Usage: python3 bench/engine/step_profile.py RUN_DIR"""
import json
import os
import sqlite3
import sys


def main():
    db = sqlite3.connect(os.path.join(sys.argv[1], "results.db"))
    rows = db.execute("SELECT task, agent, repeat, step, outcome, wall_seconds, payload FROM step "
                      "ORDER BY seq").fetchall()
    for task, agent, repeat, step, outcome, wall, payload in rows:
        doc = json.loads(payload or "{}")
        profile = doc.get("profile", {})
        if "device" in doc:
            print(f"  device: {doc['device'].get('name')} ({doc['device'].get('details')})")
        phases = ", ".join(f"{k} {v * 1e3:.1f}" for k, v in
                           sorted(profile.items(), key=lambda kv: -kv[1]))
        accounted = sum(profile.values())
        print(f"{task}/{agent}/{repeat} {step:20s} {outcome:5s} {wall * 1e3:8.1f} ms"
              + (f"  [{phases}; other {max(0.0, wall - accounted) * 1e3:.1f}] ms" if profile else ""))


if __name__ == "__main__":
    main()

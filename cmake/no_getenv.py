#!/usr/bin/env python3
"""kta reads its environment in one place (engine/settings, docs/architecture.md).

  no_getenv.py --root <src>
      Scans the C++ sources of engine/, lang/ and analyzers/ (comments and string literals
      aside) and fails, naming file:line and the call, on every getenv, secure_getenv, setenv,
      unsetenv, putenv, clearenv or use of `environ` outside engine/settings and the few uses
      ALLOWED names with their reason.
  no_getenv.py --self-test
      Runs the checker on small fake trees and fails unless each is judged as expected.
  no_getenv.py --fake-tree <name>
      Runs the checker on one fake tree (its exit status: 1 for a bad tree).
"""
import argparse
import os
import re
import sys
import tempfile

ROOTS = ("engine", "lang", "analyzers")
SOURCE_SUFFIXES = (".h", ".hpp", ".inc", ".cpp", ".cc", ".cxx")
# Where reading the environment is the point: the settings folder.
HOME = "engine/settings/"
# Files that may name one of the calls, and why.
ALLOWED = {
    # Children spawned without an environment of their own inherit the engine's (posix_spawnp
    # needs it passed as `environ`); nothing is read from it.
    ("engine/ipc/child_process.cpp", "environ"): "passed on to children, not read",
}
CALL = re.compile(r"\b(getenv|secure_getenv|setenv|unsetenv|putenv|clearenv|environ)\b")
# Comments, string and character literals (raw strings included), replaced by blanks that keep
# the line numbers.
NOT_CODE = re.compile(r'//[^\n]*|/\*.*?\*/|R"([^(\s]*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"|'
                      r"'(?:\\.|[^'\\\n])*'", re.S)


def code_only(text):
    return NOT_CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def check(root, out=sys.stdout):
    """Returns the number of errors; prints them (file:line: ...) to `out`."""
    errors, files = [], 0
    for top in ROOTS:
        for d, subdirs, names in os.walk(os.path.join(root, top)):
            subdirs.sort()
            for name in sorted(names):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.relpath(os.path.join(d, name), root).replace(os.sep, "/")
                files += 1
                if path.startswith(HOME):
                    continue
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as fh:
                    text = code_only(fh.read())
                for line_no, line in enumerate(text.split("\n"), 1):
                    for m in CALL.finditer(line):
                        if (path, m.group(1)) in ALLOWED:
                            continue
                        errors.append(f"{path}:{line_no}: {m.group(1)}: kta reads its environment "
                                      "only in engine/settings; take the value from an option "
                                      "struct filled from Settings")
    for e in errors:
        print(e, file=out)
    status = f"{len(errors)} error(s)" if errors else "OK"
    print(f"no_getenv: {files} files: {status}", file=out)
    return len(errors)


# ---- fake trees: files, and the errors the checker must report for them.
FAKE_TREES = {
    "clean": ({"engine/settings/settings.cpp": "extern char** environ;\nauto v = getenv(\"X\");\n",
               "engine/ipc/child_process.cpp": "spawn(argv, environ);\n",
               "engine/device/a.cpp": '// getenv("X") is not called here\n'
                                      'auto s = "setenv";\nauto r = R"(getenv)";\nint getenvy;\n'},
              []),
    "getenv_in_a_device": ({"engine/device/cpu/build.cpp": "int a;\nauto v = std::getenv(\"A\");\n"},
                           ["engine/device/cpu/build.cpp:2: getenv: kta reads its environment"]),
    "setenv_in_lang": ({"lang/load.cpp": "/* a\ncomment */ ::setenv(\"A\", \"b\", 1);\n"},
                       ["lang/load.cpp:2: setenv"]),
    "environ_outside_the_allowed_file": ({"analyzers/a.h": "extern char** environ;\n"},
                                         ["analyzers/a.h:1: environ"]),
    "every_spelling": ({"engine/x.cpp": "secure_getenv(a); unsetenv(a);\nputenv(b); clearenv();\n"},
                       ["engine/x.cpp:1: secure_getenv", "engine/x.cpp:1: unsetenv",
                        "engine/x.cpp:2: putenv", "engine/x.cpp:2: clearenv"]),
}


def write_fake_tree(where, name):
    files, _ = FAKE_TREES[name]
    for path, text in files.items():
        os.makedirs(os.path.join(where, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(where, path), "w", encoding="utf-8") as fh:
            fh.write(text)


class Capture:
    def __init__(self):
        self.text = ""

    def write(self, s):
        self.text += s


def self_test():
    failures = 0
    for name, (_, expected) in FAKE_TREES.items():
        with tempfile.TemporaryDirectory() as tmp:
            write_fake_tree(tmp, name)
            cap = Capture()
            n = check(tmp, out=cap)
            ok = n == len(expected) and all(e in cap.text for e in expected)
            print(f"self-test {name}: {'ok' if ok else 'WRONG'} ({n} error(s))")
            if not ok:
                failures += 1
                print("  expected: " + " | ".join(expected) if expected else "  expected no error")
                print("  ".join(("  got:\n" + cap.text).splitlines(True)))
    return 1 if failures else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--root")
    p.add_argument("--self-test", action="store_true")
    p.add_argument("--fake-tree", choices=sorted(FAKE_TREES))
    a = p.parse_args()
    if a.self_test:
        return self_test()
    if a.fake_tree:
        with tempfile.TemporaryDirectory() as tmp:
            write_fake_tree(tmp, a.fake_tree)
            return 1 if check(tmp) else 0
    if not a.root:
        p.error("--root is required")
    return 1 if check(a.root) else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""No function of kta's C++ sources is longer than 80 lines (docs/architecture.md).

  function_length.py --root <src> [--max 80] [--top N]
      Lists every function (TEST bodies and lambdas included, as universal-ctags sees them) of
      the C++ sources of engine/, lang/, analyzers/, bench/ and tests/ (test data folders aside,
      as cmake/format.sh leaves them) and fails, naming file:line, the function and its length,
      on each one longer than --max lines. --top N prints the N longest instead of checking.
  function_length.py --self-test
      Runs the checker on small fake trees and fails unless each is judged as expected.
  function_length.py --fake-tree <name>
      Runs the checker on one fake tree (its exit status: 1 for a bad tree).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOTS = ("engine", "lang", "analyzers", "bench", "tests")
SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".cxx")
# Kernels and sources that are test or benchmark data keep their exact text (tests cite their
# lines); they are not kta's code.
DATA = re.compile(r"/(corpus|kernels|cases|fixtures|data)/")
# Generated tables, exempt by path; none today.
GENERATED = ()
MAX_LINES = 80
CTAGS = "ctags"  # universal-ctags (--ctags)


def sources(root):
    out = []
    for top in ROOTS:
        for d, subdirs, names in os.walk(os.path.join(root, top)):
            subdirs.sort()
            for name in sorted(names):
                path = os.path.relpath(os.path.join(d, name), root).replace(os.sep, "/")
                if name.endswith(SOURCE_SUFFIXES) and not DATA.search("/" + path) and \
                        path not in GENERATED:
                    out.append(path)
    return out


def functions(root, files):
    """(length, path, line, name) of every function ctags finds in `files`."""
    if not files:
        return []
    cmd = [CTAGS, "--languages=C++", "--langmap=C++:+.h", "--kinds-C++=f", "--fields=+ne",
           "-o", "-", "-L", "-"]
    try:
        r = subprocess.run(cmd, cwd=root, input="\n".join(files) + "\n", capture_output=True,
                           text=True, check=False)
    except OSError as e:
        raise SystemExit(f"function_length: cannot run {CTAGS} ({e.strerror}); bash "
                         "cmake/setup.sh installs universal-ctags")
    if r.returncode != 0:
        raise SystemExit(f"function_length: ctags failed: {r.stderr.strip()}")
    found = []
    for row in r.stdout.splitlines():
        cols = row.split("\t")
        fields = dict(c.split(":", 1) for c in cols[3:] if ":" in c)
        if "line" in fields and "end" in fields:
            start, end = int(fields["line"]), int(fields["end"])
            found.append((end - start + 1, cols[1], start, cols[0]))
    return found


def check(root, limit=MAX_LINES, out=sys.stdout):
    """Returns the number of functions over `limit`; prints them (file:line: ...) to `out`."""
    files = sources(root)
    found = functions(root, files)
    long = sorted((f for f in found if f[0] > limit), key=lambda f: (f[1], f[2]))
    for n, path, line, name in long:
        print(f"{path}:{line}: {name} is {n} lines (at most {limit}): split it into named steps",
              file=out)
    status = f"{len(long)} over {limit} lines" if long else "OK"
    print(f"function_length: {len(files)} files, {len(found)} functions: {status}", file=out)
    return len(long)


def body(lines):
    return "".join(f"  x += {i};\n" for i in range(lines))


# ---- fake trees: files, and the errors the checker must report for them. A function of N body
# lines spans N + 2 lines (its head and its closing brace).
FAKE_TREES = {
    "at_the_limit": ({"engine/a.cpp": "int f(int x) {\n" + body(77) + "  return x;\n}\n",
                      "tests/a_test.cpp": "TEST(A, B) {\n" + body(78) + "}\n"},
                     []),
    "one_line_over": ({"engine/a/a.cpp": "\nint g(int x) {\n" + body(78) + "  return x;\n}\n"},
                      ["engine/a/a.cpp:2: g is 81 lines (at most 80)"]),
    "a_long_test_body": ({"tests/t/t_test.cpp": "TEST(Suite, Long) {\n" + body(90) + "}\n"},
                         ["tests/t/t_test.cpp:1: TEST is 92 lines"]),
    "a_long_method_in_a_header": ({"lang/x.h": "struct S {\n  int m(int x) {\n" + body(85) +
                                   "    return x;\n  }\n};\n"},
                                  ["lang/x.h:2: m is 88 lines"]),
    "test_data_is_not_code": ({"tests/engine/cases/k/k.cpp": "int k(int x) {\n" + body(100) +
                               "}\n"},
                              []),
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
    global CTAGS
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--root")
    p.add_argument("--max", type=int, default=MAX_LINES)
    p.add_argument("--top", type=int, default=0, help="print the N longest functions")
    p.add_argument("--self-test", action="store_true")
    p.add_argument("--fake-tree", choices=sorted(FAKE_TREES))
    p.add_argument("--ctags", default=CTAGS, help="the universal-ctags binary")
    a = p.parse_args()
    CTAGS = a.ctags
    if a.self_test:
        return self_test()
    if a.fake_tree:
        with tempfile.TemporaryDirectory() as tmp:
            write_fake_tree(tmp, a.fake_tree)
            return 1 if check(tmp) else 0
    if not a.root:
        p.error("--root is required")
    if a.top:
        found = functions(a.root, sources(a.root))
        for n, path, line, name in sorted(found, key=lambda f: (-f[0], f[1], f[2]))[:a.top]:
            print(f"{n:5d}  {path}:{line}  {name}")
        return 0
    return 1 if check(a.root, a.max) else 0


if __name__ == "__main__":
    sys.exit(main())

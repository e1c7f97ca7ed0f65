#!/usr/bin/env python3
"""The include-time half of kta's folder DAG (cmake/KtaFolders.cmake, docs/architecture.md).

  folder_dag.py --root <src> --dag <build>/kta_folder_dag.json [--graph]
      Scans every #include of the declared folders' C++ files. Fails, naming file:line and the
      edge, when a folder includes a folder outside its declared (transitive) dependencies or a
      folder nobody declared, when a file lies in no declared folder, and on any cycle (of the
      declared graph or of the folder include graph). --graph prints the include graph found.
  folder_dag.py --self-test
      Runs the checker on small fake trees and fails unless each is judged as expected.
  folder_dag.py --fake-tree <name>
      Runs the checker on one fake tree (its exit status: 1 for a bad tree).
"""
import argparse
import json
import os
import re
import sys
import tempfile

SOURCE_SUFFIXES = (".h", ".hpp", ".inc", ".cpp", ".cc", ".cxx")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


def owner(path, folders):
    """The deepest declared folder holding `path` (a root-relative, '/'-separated path)."""
    best = None
    for f in folders:
        if path.startswith(f + "/") and (best is None or len(f) > len(best)):
            best = f
    return best


def find_cycle(graph):
    """A cycle of `graph` (node -> nodes) as a list ending where it starts, or None."""
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


def closure(folder, declared):
    seen, todo = set(), [folder]
    while todo:
        for d in declared[todo.pop()]:
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def check(root, dag, out=sys.stdout, show_graph=False):
    """Returns the number of errors; prints them (file:line: ...) to `out`."""
    folders = dag["folders"]
    declared = {f: list(v.get("depends", [])) + list(v.get("headers", []))
                for f, v in folders.items()}
    errors = []
    for f, deps in declared.items():
        for d in deps:
            if d not in declared:
                errors.append(f"{f}: declares a dependency on {d}, which is no declared folder")
    cycle = find_cycle(declared)
    if cycle:
        errors.append("cycle in the declared folder graph: " + " -> ".join(cycle))
    allowed = {f: closure(f, declared) if not cycle else set(declared[f]) for f in declared}
    tops = sorted({f.split("/")[0] for f in folders})

    found = {f: {} for f in folders}  # folder -> {included folder: first file:line}
    files = includes = 0
    for top in tops:
        for d, subdirs, names in os.walk(os.path.join(root, top)):
            subdirs.sort()
            for name in sorted(names):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.relpath(os.path.join(d, name), root).replace(os.sep, "/")
                src = owner(path, folders)
                if src is None:
                    errors.append(f"{path}: in no declared folder (give its folder a "
                                  "kta_folder_library)")
                    continue
                files += 1
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as fh:
                    for line_no, line in enumerate(fh, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        inc = m.group(2)
                        if inc.split("/")[0] in tops:
                            target_path = inc
                        elif m.group(1) == '"' and os.path.exists(os.path.join(d, inc)):
                            target_path = os.path.relpath(os.path.normpath(os.path.join(d, inc)),
                                                          root).replace(os.sep, "/")
                        else:
                            continue  # a system, third-party or include-path header
                        includes += 1
                        dst = owner(target_path, folders)
                        where = f"{path}:{line_no}"
                        if dst is None:
                            folder = inc.rsplit("/", 1)[0]
                            errors.append(f'{where}: #include "{inc}": {src} -> {folder}, a folder '
                                          "nobody declared")
                            continue
                        if dst == src:
                            continue
                        found[src].setdefault(dst, where)
                        if dst not in allowed[src]:
                            deps = ", ".join(sorted(declared[src])) or "nothing"
                            errors.append(f'{where}: #include "{inc}": {src} -> {dst} is not a '
                                          f"declared dependency of {src} (it may use: {deps}, and "
                                          "what they use)")
    cycle = find_cycle(found)
    if cycle:
        edges = ", ".join(f"{a} -> {b} ({found[a][b]})" for a, b in zip(cycle, cycle[1:]))
        errors.append("cycle in the folder include graph: " + edges)

    if show_graph:
        for f in sorted(found):
            print(f"{f} -> {', '.join(sorted(found[f])) or '-'}", file=out)
    for f in sorted(folders):
        unused = sorted(set(declared[f]) - set(found[f]))
        if unused:
            print(f"folder_dag: note: {f} declares {', '.join(unused)} but includes none of it "
                  "directly", file=out)
    for e in errors:
        print(e, file=out)
    status = f"{len(errors)} error(s)" if errors else "OK"
    print(f"folder_dag: {len(folders)} folders, {files} files, {includes} kta includes: {status}",
          file=out)
    return len(errors)


# ---- fake trees: (declared graph, files), and what the checker must say about them.
FAKE_TREES = {
    "clean": ({"low": [], "mid": ["low"], "top": ["mid"]},
              {"low/low.h": "", "mid/mid.h": '#include "low/low.h"\n',
               "top/top.cpp": '#include "top/top.h"\n#include "low/low.h"\n', "top/top.h": ""},
              []),
    "back_edge": ({"low": [], "mid": ["low"]},
                  {"low/low.h": "", "low/low.cpp": '#include "low/low.h"\n#include "mid/mid.h"\n',
                   "mid/mid.h": '#include "low/low.h"\n'},
                  ['low/low.cpp:2: #include "mid/mid.h": low -> mid is not a declared dependency']),
    "back_edge_and_cycle": ({"low": [], "mid": ["low"]},
                            {"low/low.h": '#include "mid/mid.h"\n',
                             "mid/mid.h": '#include "low/low.h"\n'},
                            ["low/low.h:1: #include \"mid/mid.h\": low -> mid is not a declared",
                             "cycle in the folder include graph: low -> mid (low/low.h:1), "
                             "mid -> low (mid/mid.h:1)"]),
    "declared_cycle": ({"low": ["mid"], "mid": ["low"]},
                       {"low/low.h": "", "mid/mid.h": ""},
                       ["cycle in the declared folder graph: low -> mid -> low"]),
    "undeclared_folder": ({"low": []},
                          {"low/low.h": '#include "low/extra/x.h"\n#include "other/o.h"\n',
                           "low/extra/x.h": "", "other/o.h": ""},
                          []),  # low/extra belongs to low; "other" is not a kta top folder
    "file_outside_folders": ({"top/a": []},
                             {"top/a/a.h": '#include "top/b/b.h"\n', "top/b/b.h": ""},
                             ['top/a/a.h:1: #include "top/b/b.h": top/a -> top/b, a folder nobody',
                              "top/b/b.h: in no declared folder"]),
    "relative_include": ({"low": [], "mid": ["low"]},
                         {"low/low.h": '#include "../mid/mid.h"\n', "mid/mid.h": ""},
                         ['low/low.h:1: #include "../mid/mid.h": low -> mid is not a declared']),
}


def write_fake_tree(where, name):
    graph, files, _ = FAKE_TREES[name]
    for path, text in files.items():
        os.makedirs(os.path.join(where, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(where, path), "w", encoding="utf-8") as fh:
            fh.write(text)
    return {"folders": {f: {"depends": deps} for f, deps in graph.items()}}


def self_test():
    failures = 0
    for name, (_, _, expected) in FAKE_TREES.items():
        with tempfile.TemporaryDirectory() as tmp:
            dag = write_fake_tree(tmp, name)

            class Capture:
                text = ""

                def write(self, s):
                    self.text += s

            cap = Capture()
            n = check(tmp, dag, out=cap)
            ok = (n > 0) == bool(expected) and all(e in cap.text for e in expected)
            print(f"self-test {name}: {'ok' if ok else 'WRONG'} ({n} error(s))")
            if not ok:
                failures += 1
                print("  expected: " + " | ".join(expected) if expected else "  expected no error")
                print("  ".join(("  got:\n" + cap.text).splitlines(True)))
    return 1 if failures else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--root")
    p.add_argument("--dag")
    p.add_argument("--graph", action="store_true", help="print the folder include graph found")
    p.add_argument("--self-test", action="store_true")
    p.add_argument("--fake-tree", choices=sorted(FAKE_TREES))
    a = p.parse_args()
    if a.self_test:
        return self_test()
    if a.fake_tree:
        with tempfile.TemporaryDirectory() as tmp:
            return 1 if check(tmp, write_fake_tree(tmp, a.fake_tree), show_graph=True) else 0
    if not a.root or not a.dag:
        p.error("--root and --dag are required")
    with open(a.dag, encoding="utf-8") as fh:
        dag = json.load(fh)
    return 1 if check(a.root, dag, show_graph=a.graph) else 0


if __name__ == "__main__":
    sys.exit(main())

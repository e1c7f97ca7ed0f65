#!/usr/bin/env python3
"""Folder-level include cycles of kta's sources, by top folder (engine/<x>, lang, analyzers).

  folder_cycles.py ROOT   prints the include edges between top folders, the strongly connected
                          components with more than one folder, and the number of elementary
                          cycles among them.
Used for the before/after figures of bench/engine/REDESIGN.md; the build's own check of the
declared graph is cmake/folder_dag.py.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"((?:engine/[^/"]+|lang|analyzers)/[^"]*)"')


def top(path):
    parts = path.split("/")
    if parts[0] == "engine" and len(parts) > 2:
        return "engine/" + parts[1]
    if parts[0] in ("lang", "analyzers") and len(parts) > 1:
        return parts[0]
    return None


def graph(root):
    edges = {}
    for base in ("engine", "lang", "analyzers"):
        for d, _, files in os.walk(os.path.join(root, base)):
            for f in files:
                if not f.endswith((".h", ".cpp", ".hip", ".inc")):
                    continue
                rel = os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/")
                src = top(rel)
                if src is None:
                    continue
                edges.setdefault(src, set())
                with open(os.path.join(d, f), errors="replace") as text:
                    for line in text:
                        m = INCLUDE.match(line)
                        dst = top(m.group(1)) if m else None
                        if dst and dst != src:
                            edges[src].add(dst)
                            edges.setdefault(dst, set())
    return edges


def components(edges):
    """Tarjan's strongly connected components."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def cycles(edges, comp):
    """Elementary cycles inside one component, each once (started at its smallest folder)."""
    nodes = set(comp)
    found = []

    def walk(start, v, path):
        for w in sorted(edges[v] & nodes):
            if w == start:
                found.append(path + [start])
            elif w > start and w not in path:
                walk(start, w, path + [w])

    for s in sorted(nodes):
        walk(s, s, [s])
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    edges = graph(root)
    for src in sorted(edges):
        print(f"{src} -> {', '.join(sorted(edges[src])) or '-'}")
    big = [c for c in components(edges) if len(c) > 1]
    total = 0
    for c in big:
        cs = cycles(edges, c)
        total += len(cs)
        print(f"component: {' '.join(c)} ({len(cs)} cycles)")
        for cyc in cs:
            print("  " + " -> ".join(cyc))
    print(f"components with a cycle: {len(big)}; elementary cycles: {total}")


if __name__ == "__main__":
    main()

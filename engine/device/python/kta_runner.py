"""kta's python runner: runs PyTorch modules and functions and Triton launchers for the engine.

Started by the engine (engine/device/python/runner_process.cpp) as `python3 kta_runner.py --fd N`. It
speaks protocol version 1 (docs/python.md) over fd N, a SOCK_SEQPACKET socket: one JSON object
per message, one reply per request. Tensor memory never travels as text: every buffer is a memfd
the engine sends along with an `alloc` request; the runner maps it and, on the cpu device, uses
the mapping itself as the tensor's storage. On a GPU it keeps a device copy and stages bytes in
and out on request, outside any timed region. Stdout and stderr go to the engine's log; what
Python code prints during a call is captured and returned with the reply.

Only the standard library at import time: torch is imported by `hello`, triton on first use, so
a missing module is a named failure and not a crash.
"""

import array
import atexit
import collections
import contextlib
import gc
import hashlib
import importlib.metadata
import importlib.util
import io
import json
import mmap
import os
import re
import shutil
import socket
import sys
import tempfile
import time
import traceback

# Idle OpenMP threads sleep instead of spinning: on the cpu device samples are CPU time, which a
# spinning pool would inflate (set before torch is imported).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

PROTOCOL_VERSION = 1
MAX_MESSAGE = 200 * 1024
MAX_TEXT = 64 * 1024
# GPU cycles of a spin kernel queued before a sample's start event (~100 us on an H200): the
# stream stays busy while Python launches the timed call, so the events time the GPU's work and
# not an idle GPU waiting for the interpreter (the blocking-kernel idea of nvbench).
GUARD_CYCLES = 200000
# The guard grows past GUARD_CYCLES when the host's launch of a timed call (Python, Triton's
# launcher) takes longer: twice the slowest of the last few launches, at an assumed 2 GHz (a
# slower clock only lengthens the guard). A sample whose launch still outlasted its guard timed an
# idle GPU and is taken again (up to SAMPLE_TRIES times). On the H200 a Triton baseline in the
# runner that also hosts the torch reference took 40-120 us to launch: with the fixed guard its
# 9 us kernel timed at 40-120 us while the same kernel in the other runner timed 9 us.
GUARD_HZ = 2.0e9
GUARD_MAX_CYCLES = int(0.05 * GUARD_HZ)
SAMPLE_TRIES = 3

# Worker processes that compile a Triton module's specializations ahead ("warm"): at most this
# many per request ($KTA_WARM_WORKERS; 0 turns compiling ahead off), by default half the
# machine's cores up to 8. They are forked from a zygote: a process the runner forks right after
# `import torch`, before CUDA starts, which imports Triton and then forks one child per job, so a
# worker pays neither an interpreter start nor `import torch` (4-6 s each on the H200 when they
# were fresh interpreters: a cold rmsnorm run then took 102 s with them against 88 s without,
# bench/engine/RESULTS.md, 2026-12-03), only its own CUDA context.
def default_warm_workers():
    try:
        return int(os.environ["KTA_WARM_WORKERS"])
    except (KeyError, ValueError):
        return max(1, min(8, (os.cpu_count() or 2) // 2))


WARM_WORKERS = default_warm_workers()
# How long a call waits for warm-up workers the engine did not wait for (warm_wait), well inside
# the engine's per-call deadline.
WARM_CALL_WAIT = 5.0

# enum kta_dtype (engine/runtime/kta/launch.h) -> (torch dtype name, task dtype name). torch has
# uint32 and uint64 from 2.3 on, with few operators (copies, views, comparisons; most arithmetic
# is missing on the CPU): a reference over u32/u64 often widens to int64 and converts back.
DTYPES = [("float16", "f16"), ("bfloat16", "bf16"), ("float32", "f32"), ("float64", "f64"),
          ("int8", "i8"), ("int32", "i32"), ("int64", "i64"), ("uint8", "u8"), ("bool", "bool"),
          ("uint32", "u32"), ("uint64", "u64")]


def torch_dtype(torch, code):
    """The torch dtype of a task dtype code; a named failure where this torch lacks it."""
    name, task_dtype = DTYPES[code]
    dtype = getattr(torch, name, None)
    if dtype is None:
        raise Failure("dtype %s needs torch.%s (torch >= 2.3); this is torch %s" %
                      (task_dtype, name, torch.__version__))
    return dtype


class Failure(Exception):
    """A named failure: the reply's `error`, optionally with a traceback."""

    def __init__(self, error, tb=""):
        super().__init__(error)
        self.error = error
        self.tb = tb


def clip(text):
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + "\n... (truncated)"


def has_inout(q):
    """Whether a request's tensors include an inout (updated in place by every call)."""
    return any(t["role"] == "inout" for t in q["tensors"])


def exception_failure(prefix):
    etype, value, _ = sys.exc_info()
    line = traceback.format_exception_only(etype, value)[-1].strip()
    return Failure("%s: %s" % (prefix, line), clip(traceback.format_exc()))


# What source_digest reads of a module's folder at most: the staged copy is capped at 64 MiB.
DIGEST_CAP = 64 << 20


def source_digest(path):
    """sha256 of a module's source: its own file and the Python files beside it (two levels
    down, by relative path), which its kernels may come from."""
    folder = os.path.dirname(os.path.abspath(path))
    names = []
    for here, dirs, files in os.walk(folder):
        depth = os.path.relpath(here, folder).count(os.sep) + (here != folder)
        if depth >= 2:
            dirs[:] = []
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        names += [os.path.relpath(os.path.join(here, f), folder) for f in files if f.endswith(".py")]
    h = hashlib.sha256()
    read = 0
    for name in sorted(names):
        try:
            with open(os.path.join(folder, name), "rb") as f:
                data = f.read(DIGEST_CAP - read)
        except OSError:
            continue
        read += len(data)
        h.update(name.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
        if read >= DIGEST_CAP:
            break
    return h.hexdigest()[:32]


def triton_version():
    """The installed Triton's version, read from its package metadata (no import), or 'none'."""
    try:
        return importlib.metadata.version("triton")
    except Exception:
        return "none"


def safe_name(text):
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "unknown"


def cache_flush_bytes():
    """Twice the largest cpu cache, as the cpu device flushes (engine/device/cpu)."""
    best, best_level = 0, 0
    for index in range(8):
        d = "/sys/devices/system/cpu/cpu0/cache/index%d/" % index
        try:
            with open(d + "level") as f:
                level = int(f.read())
            with open(d + "type") as f:
                kind = f.read().strip()
            with open(d + "size") as f:
                size = f.read().strip()
        except OSError:
            break
        if kind == "Instruction" or not size:
            continue
        n = int("".join(c for c in size if c.isdigit()) or 0)
        n <<= {"K": 10, "M": 20}.get(size[-1], 0)
        if level > best_level:
            best, best_level = n, level
    return 2 * (best or (32 << 20))


class Runner:
    def __init__(self, sock):
        self.sock = sock
        self.torch = None
        self.device = "cpu"
        self.gpu = False
        self.buffers = {}  # id -> (mmap, host uint8 tensor, device uint8 tensor or None)
        self.modules = {}  # id -> (flavor, mode, callable)
        self.instances = {}  # (module id, init args) -> constructed torch module
        # Keyed by a batch: per call (module id, buffer ids, init args).
        self.graphs = {}  # batch -> (CUDA graph, its result)
        self.warmed = set()  # batches run once outside timing
        self.flush_buf = None
        self.launches = collections.deque(maxlen=8)  # host seconds to launch recent samples
        self.triton_error = None
        self.next_module = 1
        # Triton's compile cache: the role's persistent folder the engine shows this runner
        # read-write (KTA_COMPILE_CACHE; the other role's runner does not see it), else a
        # private temporary one. Keyed by Triton version, device and module source beneath.
        self.cache_root = os.environ.get("KTA_COMPILE_CACHE", "")
        if not self.cache_root:
            self.cache_root = tempfile.mkdtemp(prefix="kta-triton-")
            atexit.register(shutil.rmtree, self.cache_root, True)
        self.cache_dirs = {}  # module id -> its Triton cache folder
        self.sources = {}  # module id -> (file, symbol)
        self.warming = {}  # module id -> (jobs' status files, marker file to write when all succeed)
        self.zygote = None
        self.device_tag = "cpu"

    # ---- transport ----
    def receive(self):
        data, anc, _, _ = self.sock.recvmsg(MAX_MESSAGE + 1, socket.CMSG_SPACE(4))
        if not data:
            return None, -1
        fd = -1
        for level, kind, payload in anc:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds = array.array("i")
                fds.frombytes(payload[:len(payload) - len(payload) % fds.itemsize])
                fd = fds[0]
        return json.loads(data.decode("utf-8")), fd

    def send(self, reply):
        text = json.dumps(reply)
        if len(text) > MAX_MESSAGE:
            text = json.dumps({"ok": False, "error": "reply too large"})
        self.sock.sendall(text.encode("utf-8"))

    # ---- requests ----
    def hello(self, q):
        if q.get("version") != PROTOCOL_VERSION:
            raise Failure("protocol version mismatch: engine %s, runner %d" %
                          (q.get("version"), PROTOCOL_VERSION))
        try:
            import torch
        except Exception:
            raise exception_failure("cannot import torch")
        self.torch = torch
        want = q.get("device", "cpu")
        if want.startswith("hip") or want.startswith("cuda"):
            index = int(want.split(":")[1]) if ":" in want else 0
            if WARM_WORKERS > 0:
                self.zygote = Zygote.start(self.sock.fileno())  # before CUDA: forks stay safe
            if not torch.cuda.is_available():
                raise Failure("torch has no GPU support here (torch.cuda.is_available() is false)")
            self.device = "cuda:%d" % index
            self.gpu = True
            torch.cuda.set_device(index)
            props = torch.cuda.get_device_properties(index)
            l2 = getattr(props, "L2_cache_size", 0) or (64 << 20)
            self.flush_buf = torch.empty(2 * l2, dtype=torch.uint8, device=self.device)
            self.device_tag = safe_name("%s-sm%d%d" % (props.name, props.major, props.minor))
        else:
            self.flush_buf = torch.empty(cache_flush_bytes(), dtype=torch.uint8)
        return {"version": PROTOCOL_VERSION, "python": sys.version.split()[0],
                "torch": torch.__version__, "device": self.device, "zero_copy": not self.gpu,
                "pid": os.getpid()}

    def alloc(self, q, fd):
        if fd < 0:
            raise Failure("protocol error: alloc without a memory descriptor")
        torch = self.torch
        nbytes = int(q["bytes"])
        m = mmap.mmap(fd, max(nbytes, 1))
        os.close(fd)
        host = torch.frombuffer(m, dtype=torch.uint8, count=nbytes) if nbytes else \
            torch.empty(0, dtype=torch.uint8)
        dev = torch.empty(nbytes, dtype=torch.uint8, device=self.device) if self.gpu else None
        self.buffers[int(q["id"])] = (m, host, dev)
        return {}

    def free(self, q):
        bid = int(q["id"])
        entry = self.buffers.pop(bid, None)
        if entry is not None:
            del entry
        # A graph captured on this buffer's memory would write to freed memory.
        def uses(batch):
            return any(bid in call[1] for call in batch)
        self.graphs = {k: g for k, g in self.graphs.items() if not uses(k)}
        self.warmed = {k for k in self.warmed if not uses(k)}
        return {}

    def stage(self, ids, to_device):
        for i in ids:
            _, host, dev = self.buffers[int(i)]
            if dev is None:
                continue
            if to_device:
                dev.copy_(host)
            else:
                host.copy_(dev)
        if self.gpu:
            self.torch.cuda.synchronize()

    def compile(self, q):
        flavor, mode, path, symbol = q["flavor"], q["mode"], q["file"], q["symbol"]
        if flavor == "triton":
            why = self.triton_unavailable()
            if why:
                return {"ok": False, "unavailable": True, "error": "triton not available: " + why}
        name = "kta_user_%d" % self.next_module
        folder = os.path.dirname(os.path.abspath(path))
        if folder not in sys.path:
            sys.path.insert(0, folder)  # sibling imports of the task's module
        cache = self.cache_dir_for(path)
        self.use_cache(cache)  # a module may compile kernels as it is imported
        out = io.StringIO()
        try:
            spec = importlib.util.spec_from_file_location(name, path)
            if spec is None or spec.loader is None:
                raise Failure("import error: cannot load '%s'" % path)
            module = importlib.util.module_from_spec(spec)
            with contextlib.redirect_stdout(out):
                spec.loader.exec_module(module)
        except Failure:
            raise
        except BaseException:
            raise exception_failure("import error")
        fn = getattr(module, symbol, None)
        if fn is None:
            names = [n for n in dir(module) if not n.startswith("_")]
            raise Failure("missing symbol: '%s' is not defined in %s (it defines: %s)" %
                          (symbol, os.path.basename(path), ", ".join(names[:20])))
        if not callable(fn):
            raise Failure("'%s' in %s is not callable" % (symbol, os.path.basename(path)))
        mid = self.next_module
        self.next_module += 1
        self.modules[mid] = (flavor, mode, fn)
        self.cache_dirs[mid] = cache
        self.sources[mid] = (path, symbol)
        return {"module": mid, "output": clip(out.getvalue()), "cache": cache}

    # ---- compiling ahead ----
    def warm_up(self, q):
        """Starts worker processes that run a Triton module once at each call's shapes, on zeros,
        so that every specialization its kernels will need is compiled into the module's cache
        folder in parallel, while this runner goes on serving requests. A marker in the cache
        folder records a set of calls warmed in full: a later run skips them."""
        mid = int(q["module"])
        if mid not in self.modules or self.modules[mid][0] != "triton" or not self.gpu \
                or WARM_WORKERS <= 0:
            return {"workers": 0}
        if self.triton_unavailable():
            return {"workers": 0}
        calls = q.get("calls", [])
        cache = self.cache_dirs[mid]
        digest = hashlib.sha256(json.dumps(calls, sort_keys=True).encode()).hexdigest()[:32]
        marker = os.path.join(cache, "kta-warm-%s" % digest)
        if not calls or os.path.exists(marker):
            return {"workers": 0, "cached": bool(calls)}
        self.settle(mid, 0)  # an earlier warm-up of the module is superseded
        if self.zygote is None:
            return {"workers": 0}
        n = max(1, min(len(calls), WARM_WORKERS))
        path, symbol = self.sources[mid]
        jobs = []
        for k in range(n):
            status = os.path.join(tempfile.gettempdir(), "kta-warm-%d-%d-%d" % (os.getpid(), mid, k))
            for suffix in (".ok", ".fail", ".pid"):
                with contextlib.suppress(OSError):
                    os.unlink(status + suffix)
            job = {"file": path, "symbol": symbol, "device": self.device, "calls": calls[k::n],
                   "cache": cache, "status": status, "seconds": WARM_JOB_SECONDS}
            if self.zygote.submit(job):
                jobs.append(status)
        self.warming[mid] = (jobs, marker)
        return {"workers": len(jobs)}

    def settle(self, mid, seconds):
        """Waits up to `seconds` for a module's warm-up jobs, then stops what is left (their
        finished compiles stay cached; this runner compiles the rest as it needs them)."""
        jobs, marker = self.warming.pop(mid, ([], ""))
        deadline = time.monotonic() + seconds
        pending = list(jobs)
        ok = bool(jobs)
        while pending:
            for status in list(pending):
                if os.path.exists(status + ".ok") or os.path.exists(status + ".fail"):
                    ok = ok and os.path.exists(status + ".ok")
                    pending.remove(status)
            if not pending or time.monotonic() >= deadline:
                break
            time.sleep(0.005)
        for status in pending:  # stragglers: stopped
            ok = False
            with contextlib.suppress(OSError, ValueError):
                with open(status + ".pid") as f:
                    os.kill(int(f.read()), 9)
        for status in jobs:
            for suffix in (".ok", ".fail", ".pid"):
                with contextlib.suppress(OSError):
                    os.unlink(status + suffix)
        if ok:
            with contextlib.suppress(OSError), open(marker, "w") as f:
                f.write("warmed\n")
        return {"workers": len(jobs), "complete": ok}

    def warm_wait(self, q):
        return self.settle(int(q["module"]), float(q.get("seconds", 60)))

    def cache_dir_for(self, path):
        """The Triton cache of a module: <root>/triton-<version>/<device>/<source digest>, so a
        Triton upgrade, another GPU or another source never reads an old entry, and a candidate's
        kernels are cached apart from any other source's. A root that cannot be written (a
        read-only cache folder) gives way to a private temporary one."""
        cache = os.path.join(self.cache_root, "triton-" + safe_name(triton_version()),
                             self.device_tag, source_digest(path))
        try:
            os.makedirs(cache, exist_ok=True)
        except OSError as e:
            sys.stderr.write("kta_runner: cannot use the compile cache %s (%s); a private one "
                             "instead\n" % (cache, e.strerror))
            self.cache_root = tempfile.mkdtemp(prefix="kta-triton-")
            atexit.register(shutil.rmtree, self.cache_root, True)
            return self.cache_dir_for(path)
        return cache

    @staticmethod
    def use_cache(cache):
        """Points Triton (and torch.compile's Triton kernels) at a module's cache folder; Triton
        reads the variable whenever it compiles or loads a kernel."""
        os.environ["TRITON_CACHE_DIR"] = cache

    def triton_unavailable(self):
        if self.triton_error is not None:
            return self.triton_error
        if not self.gpu:
            self.triton_error = "the cpu device has no GPU"
            return self.triton_error
        try:
            import triton  # noqa: F401
            self.triton_error = ""
        except Exception as e:
            self.triton_error = str(e).lower() if isinstance(e, ImportError) else repr(e)
        return self.triton_error

    # ---- calls ----
    def tensors(self, q):
        torch = self.torch
        out = []
        for t in q["tensors"]:
            _, host, dev = self.buffers[int(t["buffer"])]
            base = dev if dev is not None else host
            dtype = torch_dtype(torch, t["dtype"])
            size = torch.tensor([], dtype=dtype).element_size()
            numel = 1
            for d in t["shape"]:
                numel *= d
            if numel == 0:
                out.append(torch.empty(t["shape"], dtype=dtype, device=base.device))
            else:
                out.append(base[:numel * size].view(dtype).view(t["shape"]))
        return out

    def callable_for(self, q, tensors):
        """The zero-argument function a call or a timed sample runs, and how to finish it."""
        flavor, mode, fn = self.modules[int(q["module"])]
        if int(q["module"]) in self.warming:  # the engine asks warm_wait first; this bounds it
            self.settle(int(q["module"]), WARM_CALL_WAIT)
        self.use_cache(self.cache_dirs[int(q["module"])])
        params = [p["f"] if p["is_float"] else p["i"] for p in q.get("params", [])]
        if flavor == "triton" or mode == "launcher":
            return (lambda: fn(*tensors, *params)), (lambda result: None)
        if mode == "module":
            init = tuple(a["f"] if a["is_float"] else a["i"] for a in q.get("init_args", []))
            key = (int(q["module"]), init)
            m = self.instances.get(key)
            if m is None:
                self.torch.manual_seed(0)
                m = fn(*init).eval().to(self.device)
                self.instances[key] = m
            fn = m
        ins = [x for x, t in zip(tensors, q["tensors"]) if t["role"] != "output"]
        outs = [(x, t) for x, t in zip(tensors, q["tensors"]) if t["role"] == "output"]
        torch = self.torch

        def run():
            with torch.no_grad():
                return fn(*ins)

        def finish(result):
            copy_outputs(result, outs)
        return run, finish

    @staticmethod
    @contextlib.contextmanager
    def module_code(out):
        """Runs the module's code with its stdout captured in `out`; a failure carries that
        output, and any other exception becomes a Failure with its traceback."""
        try:
            with contextlib.redirect_stdout(out):
                yield
        except Failure as f:
            f.output = out.getvalue()
            raise
        except BaseException:
            f = exception_failure("python exception")
            f.output = out.getvalue()
            raise f

    def call(self, q):
        """One call; the buffers named in `stage_out` are copied back to the shared memory after
        it (the engine reads them next: outputs, and small inputs for the mutation check), which
        saves a `fetch` round trip per buffer."""
        tensors = self.tensors(q)
        self.stage(q.get("stage_in", []), True)
        out = io.StringIO()
        with self.module_code(out):
            run, finish = self.callable_for(q, tensors)
            finish(run())
            if self.gpu:
                self.torch.cuda.synchronize()
        self.stage(q.get("stage_out", []), False)
        return {"output": clip(out.getvalue()), "staged_out": True}

    def timed(self, q):
        """One sample: the calls of q["batch"] (each a call body with buffers of its own; or q
        itself, one call) back to back, seconds per call. On the cpu device the clock is the
        process's CPU time over all threads, as the cpu device's (a competing process does not
        inflate it), with the wall time beside it."""
        calls = q.get("batch") or [q]
        prepared = []
        for c in calls:
            tensors = self.tensors(c)
            self.stage(c.get("stage_in", []), True)
            prepared.append((c, tensors))
        out = io.StringIO()
        wall = 0.0
        with self.module_code(out):
            steps = [self.callable_for(c, tensors) for c, tensors in prepared]

            def run():
                return [step() for step, _ in steps]
            inout = any(has_inout(c) for c in calls)
            self.warm(calls, run, inout)
            if self.gpu:
                graph = self.graph_for(calls, run) if len(calls) > 1 else None
                # A retaken sample runs the calls again: not with an inout, which would be
                # updated twice before the engine re-checks it.
                seconds, results = self.time_gpu(run, bool(q.get("flush")), graph,
                                                 retry=not inout)
            else:
                seconds, wall, results = self.time_cpu(run, bool(q.get("flush")))
            for (_, finish), result in zip(steps, results):
                finish(result)  # the copy into the task's buffer is not the module's work
            if self.gpu:
                self.torch.cuda.synchronize()
        n = len(calls)
        return {"seconds": seconds / n, "wall_seconds": wall / n, "output": clip(out.getvalue())}

    def warm(self, calls, run, inout):
        """One untimed run, on an idle stream, the first time callables are timed on these
        buffers: a kernel's first launch in the process (Triton's JIT, lazy module loading) then
        happens neither inside a sample nor inside a graph capture. On the GPU, a Triton kernel
        first launched inside a timed sample was seen to make the later graph capture fail for
        the baseline only, and batch samples of the same kernel differed 3x."""
        key = self.buffers_key(calls)
        if key in self.warmed or inout:
            return  # an inout would be updated twice before the sample the engine re-checks
        run()
        if self.gpu:
            self.torch.cuda.synchronize()
        self.warmed.add(key)

    def buffers_key(self, calls):
        return tuple((int(q["module"]), tuple(int(t["buffer"]) for t in q["tensors"]),
                      tuple((a["i"], a["f"]) for a in q.get("init_args", []))) for q in calls)

    def time_cpu(self, run, flush):
        if flush:
            self.flush_buf.add_(1)
        c0 = time.process_time_ns()
        t0 = time.perf_counter_ns()
        result = run()
        t1 = time.perf_counter_ns()
        c1 = time.process_time_ns()
        return (c1 - c0) * 1e-9, (t1 - t0) * 1e-9, result

    def time_gpu(self, run, flush, graph, retry=True):
        """One sample: the flush (cold), a guard kernel that keeps the stream busy while the host
        launches the timed work, then events around it. Python's garbage collector is off while
        the timed work is launched, so a collection cannot stall the launch."""
        torch = self.torch
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        guarded = hasattr(torch.cuda, "_sleep")
        for attempt in range(SAMPLE_TRIES if retry else 1):
            if flush:
                self.flush_buf.add_(1)
            guard = self.guard_cycles()
            if guarded:
                torch.cuda._sleep(guard)
            collecting = gc.isenabled()
            gc.disable()
            try:
                t0 = time.perf_counter()
                start.record()
                if graph is not None:
                    graph[0].replay()
                    result = graph[1]
                else:
                    result = run()
                end.record()
                launch = time.perf_counter() - t0
            finally:
                if collecting:
                    gc.enable()
            end.synchronize()
            self.launches.append(launch)
            if not guarded or launch * GUARD_HZ < 0.8 * guard:
                break
        return start.elapsed_time(end) * 1e-3, result

    def guard_cycles(self):
        slowest = max(self.launches) if self.launches else 0.0
        return int(min(GUARD_MAX_CYCLES, max(GUARD_CYCLES, 2 * slowest * GUARD_HZ)))

    def graph_for(self, calls, run):
        """A CUDA graph of a batch's calls (one replay per sample, so Python's launch cost is not
        what is measured), captured once per batch of modules, buffers and init args (the
        buffers' device memory stays put); None where capture fails."""
        key = self.buffers_key(calls)
        graph = self.graphs.get(key)
        if graph is None or (graph[0] is None and graph[1] < 2):
            # A failed capture is retried once: a kernel's first launch in a process (Triton's
            # JIT and module load) can break the capture that follows it.
            tries = 0 if graph is None else graph[1]
            captured = self.capture(run)
            self.graphs[key] = captured if captured else (None, tries + 1)
        graph = self.graphs[key]
        return graph if graph[0] is not None else None

    def capture(self, run):
        torch = self.torch
        try:
            run()
            torch.cuda.synchronize()
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                run()
            torch.cuda.current_stream().wait_stream(s)
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                result = run()
            torch.cuda.synchronize()
            return g, result
        except Exception as e:
            note = "kta_runner: CUDA graph capture failed, batch runs back to back: %r\n" % e
            sys.stderr.write(note)
            if os.environ.get("KTA_RUNNER_TRACE"):
                with open(os.environ["KTA_RUNNER_TRACE"], "a") as f:
                    f.write(note + traceback.format_exc())
            try:
                torch.cuda.synchronize()
            except Exception:
                pass  # a broken capture can leave an error behind; the next call reports it
            return None

    def copy(self, q):
        """Copies between buffers on the GPU (the engine copies in the shared memory itself on the
        cpu device): [dst, dst offset, src, src offset, bytes] each, after staging in the buffers
        the engine names."""
        self.stage(q.get("stage_in", []), True)
        for dst, dst_off, src, src_off, n in q["copies"]:
            d = self.buffers[int(dst)][2]
            s = self.buffers[int(src)][2]
            if d is None or s is None:
                raise Failure("protocol error: copy between buffers with no device copy")
            if dst_off + n > d.numel() or src_off + n > s.numel():
                raise Failure("protocol error: copy past a buffer's end")
            d[dst_off:dst_off + n].copy_(s[src_off:src_off + n])
        if self.gpu:
            self.torch.cuda.synchronize()
        return {}

    def fill(self, q):
        """Fills a buffer's device copy with one byte (the engine has filled the shared memory)."""
        _, host, dev = self.buffers[int(q["id"])]
        (dev if dev is not None else host).fill_(int(q["byte"]))
        if self.gpu:
            self.torch.cuda.synchronize()
        return {}

    def fetch(self, q):
        self.stage(q.get("ids", []), False)
        return {}

    def serve(self):
        handlers = {"hello": self.hello, "free": self.free, "compile": self.compile,
                    "call": self.call, "timed": self.timed, "fetch": self.fetch, "copy": self.copy, "fill": self.fill,
                    "warm": self.warm_up, "warm_wait": self.warm_wait}
        while True:
            q, fd = self.receive()
            if q is None:
                return
            op = q.get("op")
            try:
                if op == "alloc":
                    body = self.alloc(q, fd)
                elif op == "exit":
                    return
                elif op in handlers:
                    body = handlers[op](q)
                else:
                    raise Failure("protocol error: unknown request '%s'" % op)
                reply = {"ok": True}
                reply.update(body)
            except Failure as f:
                reply = {"ok": False, "error": f.error, "traceback": f.tb,
                         "output": clip(getattr(f, "output", ""))}
            except BaseException:
                f = exception_failure("runner error")
                reply = {"ok": False, "error": f.error, "traceback": f.tb}
            sys.stdout.flush()
            self.send(reply)


def copy_outputs(result, outs):
    """Copies what a functional callable returned into the task's output buffers."""
    if result is None:
        got = []  # a task whose results are all inouts, updated in place
    else:
        got = list(result) if isinstance(result, (tuple, list)) else [result]
    if len(got) != len(outs):
        raise Failure("returned %d tensor%s, the task declares %d output%s" %
                      (len(got), "" if len(got) == 1 else "s", len(outs), "" if len(outs) == 1 else "s"))
    for value, (buf, t) in zip(got, outs):
        torch_dtype_name, task_dtype = DTYPES[t["dtype"]]
        if not hasattr(value, "dtype") or not hasattr(value, "shape"):
            raise Failure("output '%s' is a %s, not a tensor" % (t["name"], type(value).__name__))
        have = str(value.dtype).replace("torch.", "")
        if have != torch_dtype_name:
            raise Failure("output '%s' has dtype %s, the task declares %s" % (t["name"], have, task_dtype))
        if list(value.shape) != list(t["shape"]):
            raise Failure("output '%s' has shape %s, expected %s" %
                          (t["name"], list(value.shape), list(t["shape"])))
        buf.copy_(value)


# A warm-up job stops itself after this long (its runner stops waiting for it much sooner).
WARM_JOB_SECONDS = 600


class Zygote:
    """The parent of warm-up workers: forked from the runner after `import torch` and before CUDA
    starts (a process that has started CUDA cannot fork usable children). It imports Triton, then
    reads jobs, one JSON line each, from a pipe and forks a child per job; it ends when the runner
    closes the pipe (the runner exits)."""

    def __init__(self, pid, jobs):
        self.pid = pid
        self.jobs = jobs

    @classmethod
    def start(cls, engine_fd):
        try:
            r, w = os.pipe()
            pid = os.fork()
        except OSError as e:
            sys.stderr.write("kta_runner: no warm-up zygote: %s\n" % e)
            return None
        if pid == 0:
            try:
                os.close(w)
                os.close(engine_fd)  # the engine's socket belongs to the runner alone
                cls.serve(r)
            finally:
                os._exit(0)
        os.close(r)
        return cls(pid, os.fdopen(w, "w"))

    def submit(self, job):
        try:
            self.jobs.write(json.dumps(job) + "\n")
            self.jobs.flush()
            return True
        except (OSError, ValueError) as e:
            sys.stderr.write("kta_runner: the warm-up zygote is gone: %s\n" % e)
            return False

    @staticmethod
    def serve(r):
        import signal
        signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
        with contextlib.suppress(Exception):
            import triton  # noqa: F401  (paid once here, not by every worker)
        with os.fdopen(r) as lines:
            for line in lines:
                try:
                    job = json.loads(line)
                except ValueError:
                    continue
                if os.fork() == 0:
                    code = 1
                    try:
                        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                        code = warm_job(job)
                    finally:
                        os._exit(code)


def warm_job(job):
    """A warm-up worker: runs the module's callable once per call on zero tensors of the call's
    shapes, so its kernels' specializations are compiled into the job's cache folder, then
    writes <status>.ok or <status>.fail. Failures are the real run's to report: here they only go
    to stderr (the runner's log)."""
    import signal
    status = job["status"]
    with open(status + ".pid", "w") as f:
        f.write(str(os.getpid()))
    signal.alarm(int(job.get("seconds", WARM_JOB_SECONDS)))
    ok = False
    try:
        os.environ["TRITON_CACHE_DIR"] = job["cache"]
        import torch
        device = job["device"]
        if device.startswith("cuda"):
            torch.cuda.set_device(int(device.split(":")[1]) if ":" in device else 0)
        folder = os.path.dirname(os.path.abspath(job["file"]))
        sys.path.insert(0, folder)
        spec = importlib.util.spec_from_file_location("kta_warm", job["file"])
        module = importlib.util.module_from_spec(spec)
        with contextlib.redirect_stdout(io.StringIO()):
            spec.loader.exec_module(module)
        fn = getattr(module, job["symbol"])
        ok = True
        for call in job["calls"]:
            try:
                tensors = [torch.zeros(t["shape"], dtype=torch_dtype(torch, t["dtype"]),
                                       device=device) for t in call["tensors"]]
                params = [p["f"] if p["is_float"] else p["i"] for p in call.get("params", [])]
                with contextlib.redirect_stdout(io.StringIO()):
                    fn(*tensors, *params)
                if device.startswith("cuda"):
                    torch.cuda.synchronize()
            except Exception as e:
                ok = False
                sys.stderr.write("kta_runner: warm-up of %s at %s: %r\n" %
                                 (job["symbol"], [t["shape"] for t in call["tensors"]], e))
    except Exception as e:
        sys.stderr.write("kta_runner: warm-up of %s: %r\n" % (job.get("symbol"), e))
    with contextlib.suppress(OSError):
        open(status + (".ok" if ok else ".fail"), "w").close()
    return 0 if ok else 1


def main(argv):
    fd = None
    for i, a in enumerate(argv):
        if a == "--fd" and i + 1 < len(argv):
            fd = int(argv[i + 1])
    if fd is None:
        sys.stderr.write("kta_runner.py: internal helper of kta; started as 'kta_runner.py --fd N'\n")
        return 2
    sock = socket.socket(fileno=fd)
    Runner(sock).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The python runner's compiling ahead without a GPU (kta_runner.py: Zygote, warm_job, settle):
workers are forked from the zygote, run the module at every call's shapes with the job's cache
folder as TRITON_CACHE_DIR, and report through status files; a failing call reports a failure; a
straggler is stopped when its runner stops waiting; the zygote ends when the runner's pipe closes.
On a GPU the same code compiles Triton kernels (runner_gpu_test, label gpu).
Run: python3 zygote_test.py (KTA_RUNNER_DIR: the folder of kta_runner.py)."""
import os
import shutil
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.environ["KTA_RUNNER_DIR"])
import kta_runner  # noqa: E402

try:
    import torch  # noqa: F401
    HAVE_TORCH = True
except ImportError:
    HAVE_TORCH = False

MODULE = """
import os, time
def specialize(x, n):
    # What a Triton launcher's first call at a shape does: leaves a compiled kernel in the cache.
    path = os.path.join(os.environ["TRITON_CACHE_DIR"], "kernel-%d-%d" % (x.shape[0], n))
    open(path, "w").close()
def broken(x, n):
    raise ValueError("no kernel for %d" % n)
def stuck(x, n):
    time.sleep(600)
"""


def call(length, n):
    return {"tensors": [{"shape": [length], "dtype": 2}],
            "params": [{"is_float": False, "i": n, "f": 0.0}]}


def wait_for(paths, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if any(os.path.exists(p) for p in paths):
            return True
        time.sleep(0.01)
    return False


@unittest.skipUnless(HAVE_TORCH, "torch is not importable by this interpreter")
class Zygote(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="kta-zygote-test-")
        self.module = os.path.join(self.dir, "mod.py")
        with open(self.module, "w") as f:
            f.write(MODULE)
        self.cache = os.path.join(self.dir, "cache")
        os.makedirs(self.cache)
        self.engine_fd = os.open(os.devnull, os.O_RDONLY)  # stands for the engine's socket
        self.zygote = kta_runner.Zygote.start(self.engine_fd)
        self.assertIsNotNone(self.zygote)

    def tearDown(self):
        self.zygote.jobs.close()
        os.close(self.engine_fd)
        shutil.rmtree(self.dir, ignore_errors=True)

    def job(self, symbol, calls, name):
        return {"file": self.module, "symbol": symbol, "device": "cpu", "calls": calls,
                "cache": self.cache, "status": os.path.join(self.dir, name), "seconds": 60}

    def test_workers_run_every_call_into_the_cache_and_report(self):
        jobs = [self.job("specialize", [call(4, 1), call(8, 2)], "a"),
                self.job("specialize", [call(16, 3)], "b")]
        for j in jobs:
            self.assertTrue(self.zygote.submit(j))
        for j in jobs:
            self.assertTrue(wait_for([j["status"] + ".ok", j["status"] + ".fail"]))
            self.assertTrue(os.path.exists(j["status"] + ".ok"), j["status"])
        self.assertEqual(sorted(os.listdir(self.cache)),
                         ["kernel-16-3", "kernel-4-1", "kernel-8-2"])

    def test_a_failing_call_reports_a_failure(self):
        j = self.job("broken", [call(4, 1)], "c")
        self.assertTrue(self.zygote.submit(j))
        self.assertTrue(wait_for([j["status"] + ".ok", j["status"] + ".fail"]))
        self.assertTrue(os.path.exists(j["status"] + ".fail"))

    def test_settle_stops_a_straggler_and_writes_no_marker(self):
        j = self.job("stuck", [call(4, 1)], "d")
        self.assertTrue(self.zygote.submit(j))
        self.assertTrue(wait_for([j["status"] + ".pid"]))
        with open(j["status"] + ".pid") as f:
            pid = int(f.read())
        runner = kta_runner.Runner(None)
        marker = os.path.join(self.cache, "kta-warm-test")
        runner.warming[1] = ([j["status"]], marker)
        done = runner.settle(1, 0.2)
        self.assertEqual(done, {"workers": 1, "complete": False})
        self.assertFalse(os.path.exists(marker))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.01)
        else:
            self.fail("the straggler %d still runs" % pid)

    def test_the_zygote_ends_with_its_runner(self):
        self.zygote.jobs.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                os.kill(self.zygote.pid, 0)
                finished, _ = os.waitpid(self.zygote.pid, os.WNOHANG)
                if finished:
                    break
            except (ProcessLookupError, ChildProcessError):
                break
            time.sleep(0.01)
        else:
            self.fail("the zygote outlived its pipe")
        self.zygote.jobs = open(os.devnull, "w")  # tearDown closes it


if __name__ == "__main__":
    unittest.main()

"""The python runner's requests that act on a buffer's device copy (kta_runner.py: stage_in,
copy, fill, and a call's stage_out), without a GPU: CPU tensors stand for the device copies, so
what a request does to the device copy and what it leaves in the shared memory can both be read.
On a GPU the same code runs on CUDA tensors (runner_gpu_test, label gpu).
Run: python3 device_ops_test.py (KTA_RUNNER_DIR: the folder of kta_runner.py)."""
import os
import sys
import unittest

sys.path.insert(0, os.environ["KTA_RUNNER_DIR"])
import kta_runner  # noqa: E402

try:
    import torch
except ImportError:
    torch = None


@unittest.skipUnless(torch is not None, "torch is not importable by this interpreter")
class DeviceOps(unittest.TestCase):
    def setUp(self):
        self.runner = kta_runner.Runner(None)
        self.runner.torch = torch
        self.runner.gpu = False  # no CUDA synchronize; the "device" tensors below are on the CPU

    def buffer(self, bid, values):
        host = torch.tensor(values, dtype=torch.uint8)
        dev = torch.zeros(len(values), dtype=torch.uint8)  # the device copy, stale until staged
        self.runner.buffers[bid] = (None, host, dev)
        return host, dev

    def test_copy_stages_in_what_it_is_told_then_copies_on_the_device(self):
        src_host, src_dev = self.buffer(1, list(range(10)))
        dst_host, dst_dev = self.buffer(2, [99] * 10)
        # A rotation by 3: two copies; the source is staged in first, the destination is not.
        self.runner.copy({"copies": [[2, 0, 1, 3, 7], [2, 7, 1, 0, 3]], "stage_in": [1]})
        self.assertEqual(src_dev.tolist(), list(range(10)))
        self.assertEqual(dst_dev.tolist(), [3, 4, 5, 6, 7, 8, 9, 0, 1, 2])
        self.assertEqual(dst_host.tolist(), [99] * 10)  # the shared memory is left as it was
        with self.assertRaises(kta_runner.Failure):
            self.runner.copy({"copies": [[2, 5, 1, 0, 6]], "stage_in": []})

    def test_fill_writes_the_device_copy(self):
        host, dev = self.buffer(3, [1] * 8)
        self.runner.fill({"id": 3, "byte": 255})
        self.assertEqual(dev.tolist(), [255] * 8)
        self.assertEqual(host.tolist(), [1] * 8)  # the engine has filled the shared memory itself

    def test_stage_out_copies_the_device_copy_back(self):
        host, dev = self.buffer(4, [0] * 4)
        dev.copy_(torch.tensor([5, 6, 7, 8], dtype=torch.uint8))
        self.runner.stage([4], False)
        self.assertEqual(host.tolist(), [5, 6, 7, 8])


if __name__ == "__main__":
    unittest.main()

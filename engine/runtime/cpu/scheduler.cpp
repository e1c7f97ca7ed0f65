// The cpu runtime's grid scheduler: validates a launch like a GPU would, then spreads its blocks
// over a pool of OS threads. Each OS thread runs whole blocks, one at a time, and owns the
// block's dynamic shared memory buffer.
#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/runtime/cpu/runtime_state.h"
#include "engine/runtime/kta/geometry.h"

constinit thread_local kta_rt::ThreadState kta_rt::tls{};

namespace kta_rt {
namespace {

RuntimeConfig g_config{0, KTA_WARP_SIZE_DEFAULT, 64 * 1024, 1024, 128 * 1024};

// Bytes of thread-local storage of the module that defines `fn`: the module's static
// __shared__ variables (they are thread_local on the cpu device).
size_t module_tls_bytes(const void* fn) {
  static std::mutex mu;
  static std::map<const void*, size_t> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(fn);
  if (it != cache.end()) return it->second;
  Dl_info info{};
  size_t bytes = 0;
  if (dladdr(fn, &info) != 0 && info.dli_fname != nullptr) {
    struct Query {
      const char* name;
      size_t bytes;
    } q{info.dli_fname, 0};
    dl_iterate_phdr(
        [](dl_phdr_info* pi, size_t, void* data) -> int {
          auto* qq = static_cast<Query*>(data);
          if (pi->dlpi_name == nullptr || std::strcmp(pi->dlpi_name, qq->name) != 0) return 0;
          for (int i = 0; i < pi->dlpi_phnum; ++i) {
            if (pi->dlpi_phdr[i].p_type == PT_TLS) qq->bytes = pi->dlpi_phdr[i].p_memsz;
          }
          return 1;
        },
        &q);
    bytes = q.bytes;
  }
  cache.emplace(fn, bytes);
  return bytes;
}

std::string format_dim(dim3 d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

// Empty when the launch is valid, else why a GPU would refuse it (the check every device shares).
std::string check_geometry(const LaunchDesc& d, size_t static_shared) {
  return kta_geometry::error({d.grid.x, d.grid.y, d.grid.z}, {d.block.x, d.block.y, d.block.z},
                             d.dynamic_shared_bytes, static_shared, g_config.max_threads_per_block,
                             g_config.shared_mem_limit);
}

// One running launch, shared by the pool threads.
struct Job {
  const LaunchDesc* desc = nullptr;
  uint64_t blocks = 0;
  uint64_t chunk = 1;
  std::atomic<uint64_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mu;
  std::string error;

  void fail(const std::string& why) {
    std::lock_guard<std::mutex> lock(mu);
    if (!failed.exchange(true)) error = why;
  }
};

// Per OS thread: the dynamic shared memory buffer.
struct WorkerLocal {
  void* shared = nullptr;
  size_t shared_bytes = 0;
  ~WorkerLocal() { std::free(shared); }
};
thread_local WorkerLocal t_local;

void run_blocks(Job& job) {
  const LaunchDesc& d = *job.desc;
  ThreadState& t = tls;
  t.block_dim = d.block;
  t.grid_dim = d.grid;
  t.warp_size = d.warp_size != 0 ? d.warp_size : g_config.warp_size;
  t.scheduler = nullptr;
  t.kernel = d.kernel;
  if (d.dynamic_shared_bytes > 0) {
    if (t_local.shared_bytes != d.dynamic_shared_bytes) {
      std::free(t_local.shared);
      t_local.shared = std::aligned_alloc(64, (d.dynamic_shared_bytes + 63) / 64 * 64);
      t_local.shared_bytes = d.dynamic_shared_bytes;
    }
    t.dynamic_shared = t_local.shared;
  } else {
    t.dynamic_shared = nullptr;
  }
  const uint64_t gx = d.grid.x, gxy = uint64_t(d.grid.x) * d.grid.y;
  while (!job.failed.load(std::memory_order_relaxed)) {
    uint64_t first = job.next.fetch_add(job.chunk, std::memory_order_relaxed);
    if (first >= job.blocks) break;
    uint64_t last = std::min(job.blocks, first + job.chunk);
    for (uint64_t b = first; b < last; ++b) {
      t.block_idx = Index3{uint32_t(b % gx), uint32_t((b % gxy) / gx), uint32_t(b / gxy)};
      try {
        d.run_block(d.closure);
      } catch (const std::exception& e) {
        job.fail(std::string(e.what()) + " in block " +
                 format_dim(dim3(t.block_idx.x, t.block_idx.y, t.block_idx.z)));
        return;
      } catch (...) {
        job.fail("unknown exception in block " +
                 format_dim(dim3(t.block_idx.x, t.block_idx.y, t.block_idx.z)));
        return;
      }
      if (job.failed.load(std::memory_order_relaxed)) return;
    }
  }
}

// A fixed pool of OS threads; the launching thread works too.
class Pool {
 public:
  explicit Pool(unsigned threads) {
    for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { loop(); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& w : workers_) w.join();
  }
  unsigned size() const { return unsigned(workers_.size()) + 1; }
  void run(Job& job) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      job_ = &job;
      ++generation_;
      busy_ = unsigned(workers_.size());
    }
    cv_.notify_all();
    run_blocks(job);
    std::unique_lock<std::mutex> lock(mu_);
    done_cv_.wait(lock, [&] { return busy_ == 0; });
    job_ = nullptr;
  }

 private:
  void loop() {
    uint64_t seen = 0;
    for (;;) {
      Job* job = nullptr;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        job = job_;
      }
      run_blocks(*job);
      std::lock_guard<std::mutex> lock(mu_);
      if (--busy_ == 0) done_cv_.notify_all();
    }
  }
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable cv_, done_cv_;
  Job* job_ = nullptr;
  uint64_t generation_ = 0;
  unsigned busy_ = 0;
  bool stop_ = false;
};

std::mutex g_pool_mu;
Pool* g_pool = nullptr;  // created on first launch; lives until exit
std::mutex g_error_mu;
std::string g_last_error;
std::string g_sticky_error;

Pool& pool() {
  std::lock_guard<std::mutex> lock(g_pool_mu);
  if (g_pool == nullptr) {
    unsigned n = g_config.threads != 0 ? g_config.threads
                                       : std::max(1u, std::thread::hardware_concurrency());
    g_pool = new Pool(n);
  }
  return *g_pool;
}

void record_error(const std::string& e) {
  std::lock_guard<std::mutex> lock(g_error_mu);
  g_last_error = e;
  if (g_sticky_error.empty()) g_sticky_error = e;
}

}  // namespace

const RuntimeConfig& config() { return g_config; }

}  // namespace kta_rt

using namespace kta_rt;

extern "C" {

int kta_rt_launch(const LaunchDesc* desc) {
  size_t static_shared = module_tls_bytes(reinterpret_cast<const void*>(desc->run_block));
  std::string bad = check_geometry(*desc, static_shared);
  if (!bad.empty()) {
    record_error(bad);
    return 1;
  }
  // Launches from inside a launch (a kernel calling a host API) would deadlock the pool.
  static thread_local bool in_launch = false;
  if (in_launch) {
    record_error("nested launch from device code is not supported");
    return 1;
  }
  in_launch = true;
  Job job;
  job.desc = desc;
  job.blocks = uint64_t(desc->grid.x) * desc->grid.y * desc->grid.z;
  Pool& p = pool();
  job.chunk = std::max<uint64_t>(1, job.blocks / (uint64_t(p.size()) * 16));
  ThreadState saved = tls;
  p.run(job);
  tls = saved;
  in_launch = false;
  if (job.failed) {
    record_error(job.error);
    return 1;
  }
  return 0;
}

void kta_rt_configure(const RuntimeConfig* c) {
  g_config = *c;
  if (g_config.warp_size == 0) g_config.warp_size = KTA_WARP_SIZE_DEFAULT;
  if (g_config.shared_mem_limit == 0) g_config.shared_mem_limit = 64 * 1024;
  if (g_config.max_threads_per_block == 0) g_config.max_threads_per_block = 1024;
  if (g_config.fiber_stack_bytes == 0) g_config.fiber_stack_bytes = 128 * 1024;
  std::lock_guard<std::mutex> lock(g_pool_mu);
  if (g_pool != nullptr && g_config.threads != 0 && g_pool->size() != g_config.threads) {
    delete g_pool;
    g_pool = nullptr;
  }
}

const char* kta_rt_last_error() {
  std::lock_guard<std::mutex> lock(g_error_mu);
  return g_last_error.c_str();
}
const char* kta_rt_sticky_error() {
  std::lock_guard<std::mutex> lock(g_error_mu);
  return g_sticky_error.c_str();
}
void kta_rt_clear_error() {
  std::lock_guard<std::mutex> lock(g_error_mu);
  g_last_error.clear();
  g_sticky_error.clear();
}

}  // extern "C"

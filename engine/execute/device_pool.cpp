#include "engine/execute/device_pool.h"

#include <condition_variable>
#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace kta::engine {

struct DevicePool::State {
  DeviceFactory make;
  int spares_left = 0;  // candidate devices still worth starting ahead of time
  std::mutex mu;
  std::vector<std::unique_ptr<Device>> idle_trusted;
  std::future<std::unique_ptr<Device>> spare;          // the next candidate device, starting
  std::future<std::unique_ptr<Device>> first_trusted;  // prestart(): the first trusted device
  std::map<DeviceKey, int> opened;
  bool closing = false;

  // Devices are started ahead of time on one thread that lives as long as the pool: a worker
  // dies with the thread that started it (PR_SET_PDEATHSIG), so a short-lived thread won't do.
  std::thread starter;
  // prestart()'s trusted device starts on a thread of its own (in parallel with the candidate's)
  // that then waits for the pool to close, for the same reason.
  std::thread trusted_starter;
  std::condition_variable closed;
  std::condition_variable wake;
  std::deque<std::packaged_task<std::unique_ptr<Device>()>> queue;

  std::unique_ptr<Device> open(DeviceKey key) {
    {
      std::lock_guard lock(mu);
      ++opened[key];
    }
    return make(key);
  }
  // Under `mu`.
  void start_spare() {
    if (spares_left <= 0 || spare.valid() || closing) return;
    --spares_left;
    std::packaged_task<std::unique_ptr<Device>()> task(
        [this] { return open({DeviceRole::candidate}); });
    spare = task.get_future();
    queue.push_back(std::move(task));
    if (!starter.joinable()) starter = std::thread([this] { run_starter(); });
    wake.notify_one();
  }
  void run_starter() {
    std::unique_lock lock(mu);
    for (;;) {
      wake.wait(lock, [this] { return closing || !queue.empty(); });
      if (queue.empty()) return;  // closing
      auto task = std::move(queue.front());
      queue.pop_front();
      lock.unlock();
      task();
      lock.lock();
    }
  }
};

namespace {

// A trusted device on loan to one job: forwards every call and, when the job lets go of it,
// returns the device to the pool unless something went wrong on it.
class PooledDevice : public Device {
 public:
  PooledDevice(std::shared_ptr<DevicePool::State> pool, std::unique_ptr<Device> inner)
      : pool_(std::move(pool)), inner_(std::move(inner)) {}
  ~PooledDevice() override {
    if (!healthy_ || !inner_) return;
    std::lock_guard lock(pool_->mu);
    if (!pool_->closing) pool_->idle_trusted.push_back(std::move(inner_));
  }

  DeviceInfo info() const override { return inner_->info(); }
  Buffer alloc(size_t bytes) override {
    return guard([&] { return inner_->alloc(bytes); });
  }
  void free(Buffer b) override {
    guard([&] { inner_->free(b); });
  }
  void upload(Buffer dst, const void* src, size_t bytes) override {
    guard([&] { inner_->upload(dst, src, bytes); });
  }
  void download(void* dst, Buffer src, size_t bytes) override {
    guard([&] { inner_->download(dst, src, bytes); });
  }
  void fill(Buffer dst, uint8_t byte) override {
    guard([&] { inner_->fill(dst, byte); });
  }
  void copy(std::span<const BufferCopy> copies) override {
    guard([&] { inner_->copy(copies); });
  }
  void together(const std::function<void()>& f) override {
    guard([&] { inner_->together(f); });
  }
  CompileResult compile(const CompileRequest& request) override {
    return guard([&] { return inner_->compile(request); });
  }
  LaunchResult run(const Invocation& invocation) override {
    return watch(guard([&] { return inner_->run(invocation); }));
  }
  TimedResult timed(std::span<const Invocation> batch, bool flush) override {
    TimedResult t = guard([&] { return inner_->timed(batch, flush); });
    watch(t.status);
    return t;
  }
  void warm_up(uint64_t module, std::span<const LauncherArgs> calls) override {
    guard([&] { inner_->warm_up(module, calls); });
  }
  void synchronize() override {
    guard([&] { inner_->synchronize(); });
  }

 private:
  // An exception leaves the device in an unknown state: it is not lent again.
  template <class F>
  auto guard(F&& f) -> decltype(f()) {
    try {
      return f();
    } catch (...) {
      healthy_ = false;
      throw;
    }
  }
  const LaunchResult& watch(const LaunchResult& r) {
    if (r.context_lost || r.device_restarted) healthy_ = false;
    return r;
  }

  std::shared_ptr<DevicePool::State> pool_;
  std::unique_ptr<Device> inner_;
  bool healthy_ = true;
};

}  // namespace

DevicePool::DevicePool(DeviceFactory make, int candidates_expected)
    : state_(std::make_shared<State>()) {
  state_->make = std::move(make);
  state_->spares_left = candidates_expected;
}

DevicePool::~DevicePool() {
  std::future<std::unique_ptr<Device>> spare, first;
  {
    std::lock_guard lock(state_->mu);
    state_->closing = true;
    state_->idle_trusted.clear();
    state_->queue.clear();  // not started yet: never will be
    spare = std::move(state_->spare);
    first = std::move(state_->first_trusted);
    state_->wake.notify_all();
    state_->closed.notify_all();
  }
  // Devices that were starting or never claimed: closed here, before their threads end.
  for (auto* f : {&spare, &first}) {
    if (!f->valid()) continue;
    try {
      f->get();
    } catch (...) {
    }
  }
  if (state_->starter.joinable()) state_->starter.join();
  if (state_->trusted_starter.joinable()) state_->trusted_starter.join();
}

void DevicePool::prestart() {
  std::shared_ptr<State> s = state_;
  std::lock_guard lock(s->mu);
  if (s->closing || s->first_trusted.valid() || s->trusted_starter.joinable()) return;
  auto task = std::make_shared<std::packaged_task<std::unique_ptr<Device>()>>(
      [raw = s.get()] { return raw->open({DeviceRole::trusted}); });
  s->first_trusted = task->get_future();
  s->trusted_starter = std::thread([raw = s.get(), task] {
    (*task)();
    std::unique_lock wait(raw->mu);
    raw->closed.wait(wait, [raw] { return raw->closing; });
  });
  s->start_spare();
}

DeviceFactory DevicePool::factory() {
  std::shared_ptr<State> s = state_;
  return [s](DeviceKey key) -> std::unique_ptr<Device> {
    if (key == DeviceKey{DeviceRole::trusted}) {
      std::unique_ptr<Device> d;
      std::future<std::unique_ptr<Device>> first;
      {
        std::lock_guard lock(s->mu);
        if (!s->idle_trusted.empty()) {
          d = std::move(s->idle_trusted.back());
          s->idle_trusted.pop_back();
        } else if (s->first_trusted.valid()) {
          first = std::move(s->first_trusted);
        }
        // The job's candidate device starts while its trusted one compiles.
        s->start_spare();
      }
      if (!d && first.valid()) {
        // A prestart that failed is tried once more, now; that failure is the job's.
        try {
          d = first.get();
        } catch (const std::exception&) {
        }
      }
      if (!d) d = s->open(key);
      return std::make_unique<PooledDevice>(s, std::move(d));
    }
    if (key == DeviceKey{DeviceRole::candidate}) {
      std::future<std::unique_ptr<Device>> mine;
      {
        std::lock_guard lock(s->mu);
        mine = std::move(s->spare);
        if (mine.valid()) s->start_spare();  // the next job's
      }
      if (mine.valid()) {
        // A start that failed ahead of time is tried once more, now; that failure is the job's.
        try {
          return mine.get();
        } catch (const std::exception&) {
        }
      }
      return s->open(key);
    }
    return s->open(key);
  };
}

int DevicePool::opened(DeviceKey key) const {
  std::lock_guard lock(state_->mu);
  auto it = state_->opened.find(key);
  return it == state_->opened.end() ? 0 : it->second;
}

}  // namespace kta::engine

// Threads of a block as fibers, for kernels that synchronize. The scheduler resumes every ready
// thread in order until it blocks (at __syncthreads or a warp collective) or exits; then it
// releases a warp whose live lanes all wait at a collective, or the whole block when every
// thread waits at the barrier. When nothing can be released the block is deadlocked, and the
// launch fails with a description instead of hanging. A warp's release records which lanes took
// part: a shuffle from any other lane (exited, or missing from a partial last warp) reads what
// the hardware gives, 0 on AMD and an undefined value on NVIDIA (docs/devices.md).
#include <sys/mman.h>
#include <unistd.h>

#include <boost/context/detail/fcontext.hpp>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "engine/runtime/cpu/runtime_state.h"

// AddressSanitizer's stack-switch annotations, present only when libasan is loaded.
extern "C" {
void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, size_t size)
    __attribute__((weak));
void __sanitizer_finish_switch_fiber(void* fake_stack_save, const void** bottom_old,
                                     size_t* size_old) __attribute__((weak));
}

#if defined(__x86_64__) && defined(__linux__)
// A minimal stack switch: saves the callee-saved registers on the current stack, stores the
// stack pointer, loads the other one. Unlike Boost's jump_fcontext it does not save and restore
// the MXCSR and x87 control words (kernels never change them), which makes a barrier much
// cheaper. New stacks start in kta_rt_fiber_start, which calls rbx(r12).
extern "C" void* kta_rt_fiber_switch(void** save_sp, void* to_sp, void* data);
extern "C" void kta_rt_fiber_start();
asm(R"(
  .text
  .globl kta_rt_fiber_switch
  .hidden kta_rt_fiber_switch
  .type kta_rt_fiber_switch, @function
kta_rt_fiber_switch:
  .cfi_startproc
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  movq %rdx, %rax
  ret
  .cfi_endproc
  .size kta_rt_fiber_switch, .-kta_rt_fiber_switch
  .globl kta_rt_fiber_start
  .hidden kta_rt_fiber_start
  .type kta_rt_fiber_start, @function
kta_rt_fiber_start:
  .cfi_startproc
  .cfi_undefined rip
  movq %r12, %rdi
  callq *%rbx
  ud2
  .cfi_endproc
  .size kta_rt_fiber_start, .-kta_rt_fiber_start
)");
#define KTA_OWN_SWITCH 1
#endif

namespace kta_rt {
namespace {

namespace ctx = boost::context::detail;

// One suspended execution context: a saved stack pointer (own switch) or a Boost fcontext.
#ifdef KTA_OWN_SWITCH
using Context = void*;
#else
using Context = ctx::fcontext_t;
#endif

enum class FiberState : uint8_t { ready, wait_block, wait_warp, done };

struct Fiber {
  Context context = nullptr;
  FiberState state = FiberState::ready;
  uint32_t exchanges = 0;  // warp exchanges done; picks the exchange buffer
  Index3 tid{};
};

class Scheduler {
 public:
  ~Scheduler() {
    if (stacks_ != nullptr) munmap(stacks_, capacity_ * stack_bytes_);
  }

  void run_block(void (*fn)(void*), void* closure);
  void yield(FiberState state);
  uint64_t exchange(uint64_t value, uint32_t src_lane, const ShuffleSite* site);
  uint64_t ballot(int predicate);

#ifdef KTA_OWN_SWITCH
  static void entry(void* scheduler);
#else
  static void entry(ctx::transfer_t t);
#endif
  // Starts or resumes fiber i; returns when it blocks or exits.
  void resume(uint32_t i);
  // Back to the scheduler from the running fiber.
  void suspend();
  Context make_context(uint32_t i);
  uint32_t next_ready(uint32_t from) const;
  // Makes fiber i the running GPU thread (builtins included).
  void enter(uint32_t i);

 private:
  void reserve(uint32_t threads);
  char* stack_bottom(uint32_t i) const { return stacks_ + size_t(i) * stack_bytes_; }
  bool release();
  std::string deadlock_report() const;
  std::string inactive_read(const ShuffleSite& site, uint32_t src_lane) const;

  char* stacks_ = nullptr;
  size_t stack_bytes_ = 0;
  uint32_t capacity_ = 0;
  std::vector<Fiber> fibers_;
  std::vector<uint64_t> slots_[2];
  std::vector<uint64_t> active_;  // per warp: the lanes its last released collective took in
  uint32_t count_ = 0;
  uint32_t current_ = 0;
  Context main_ = nullptr;
  void (*fn_)(void*) = nullptr;
  void* closure_ = nullptr;
  std::string error_;
  bool failed_ = false;
  // AddressSanitizer bookkeeping of the scheduler's own stack.
  const void* main_bottom_ = nullptr;
  size_t main_size_ = 0;
};

thread_local Scheduler* t_scheduler = nullptr;

void Scheduler::reserve(uint32_t threads) {
  size_t want = config().fiber_stack_bytes;
  if (threads <= capacity_ && want == stack_bytes_) return;
  if (stacks_ != nullptr) munmap(stacks_, capacity_ * stack_bytes_);
  long page = sysconf(_SC_PAGESIZE);
  stack_bytes_ = (want + size_t(page) - 1) / size_t(page) * size_t(page);
  capacity_ = std::max<uint32_t>(threads, 64);
  void* p = mmap(nullptr, capacity_ * stack_bytes_, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    stacks_ = nullptr;
    capacity_ = 0;
    throw DeviceFault("out of memory: cannot map fiber stacks for " + std::to_string(threads) +
                      " threads");
  }
  stacks_ = static_cast<char*>(p);
  // A guard page under every stack turns a stack overflow into a fault, not silent corruption.
  for (uint32_t i = 0; i < capacity_; ++i) mprotect(stack_bottom(i), size_t(page), PROT_NONE);
}

#ifdef KTA_OWN_SWITCH
void Scheduler::entry(void* scheduler) {
  auto* s = static_cast<Scheduler*>(scheduler);
#else
void Scheduler::entry(ctx::transfer_t t) {
  auto* s = static_cast<Scheduler*>(t.data);
  s->main_ = t.fctx;
#endif
  if (__sanitizer_finish_switch_fiber)
    __sanitizer_finish_switch_fiber(nullptr, &s->main_bottom_, &s->main_size_);
  try {
    s->fn_(s->closure_);
  } catch (const std::exception& e) {
    if (!s->failed_) s->error_ = e.what();
    s->failed_ = true;
  } catch (...) {
    if (!s->failed_) s->error_ = "unknown exception";
    s->failed_ = true;
  }
  s->fibers_[s->current_].state = FiberState::done;
  if (__sanitizer_start_switch_fiber)
    __sanitizer_start_switch_fiber(nullptr, s->main_bottom_, s->main_size_);
#ifdef KTA_OWN_SWITCH
  void* finished = nullptr;
  uint32_t next =
      s->failed_ || __sanitizer_start_switch_fiber ? s->count_ : s->next_ready(s->current_);
  if (next < s->count_) {
    s->enter(next);
    kta_rt_fiber_switch(&finished, s->fibers_[next].context, nullptr);
  }
  kta_rt_fiber_switch(&finished, s->main_, nullptr);
#else
  ctx::jump_fcontext(s->main_, nullptr);
#endif
  __builtin_unreachable();
}

Context Scheduler::make_context(uint32_t i) {
  // Stagger the stack tops so the threads' hot frames do not all map to the same cache sets.
  char* top = stack_bottom(i) + stack_bytes_ - (i % 64) * 64;
  top = reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(top) & ~uintptr_t(15));
#ifdef KTA_OWN_SWITCH
  auto** sp = reinterpret_cast<void**>(top) - 7;
  sp[0] = nullptr;                                       // r15
  sp[1] = nullptr;                                       // r14
  sp[2] = nullptr;                                       // r13
  sp[3] = this;                                          // r12: the argument
  sp[4] = reinterpret_cast<void*>(&Scheduler::entry);    // rbx: the function
  sp[5] = nullptr;                                       // rbp
  sp[6] = reinterpret_cast<void*>(&kta_rt_fiber_start);  // return address
  return sp;
#else
  return ctx::make_fcontext(top, size_t(top - stack_bottom(i)), &Scheduler::entry);
#endif
}

void Scheduler::resume(uint32_t i) {
  void* fake = nullptr;
  if (__sanitizer_start_switch_fiber)
    __sanitizer_start_switch_fiber(&fake, stack_bottom(i), stack_bytes_);
#ifdef KTA_OWN_SWITCH
  kta_rt_fiber_switch(&main_, fibers_[i].context, nullptr);
#else
  ctx::transfer_t r = ctx::jump_fcontext(fibers_[i].context, this);
  fibers_[i].context = r.fctx;
#endif
  if (__sanitizer_finish_switch_fiber) __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
}

void Scheduler::suspend() {
#ifdef KTA_OWN_SWITCH
  // Hand over straight to the next ready thread of this pass (one switch instead of two through
  // the scheduler); the scheduler gets control back when the pass is over.
  if (__sanitizer_start_switch_fiber == nullptr) {
    uint32_t from = current_;
    uint32_t next = failed_ ? count_ : next_ready(from);
    if (next < count_) {
      enter(next);
      kta_rt_fiber_switch(&fibers_[from].context, fibers_[next].context, nullptr);
    } else {
      kta_rt_fiber_switch(&fibers_[from].context, main_, nullptr);
    }
    return;
  }
#endif
  void* fake = nullptr;
  if (__sanitizer_start_switch_fiber)
    __sanitizer_start_switch_fiber(&fake, main_bottom_, main_size_);
#ifdef KTA_OWN_SWITCH
  kta_rt_fiber_switch(&fibers_[current_].context, main_, nullptr);
#else
  ctx::transfer_t t = ctx::jump_fcontext(main_, nullptr);
  main_ = t.fctx;
#endif
  if (__sanitizer_finish_switch_fiber)
    __sanitizer_finish_switch_fiber(fake, &main_bottom_, &main_size_);
}

uint32_t Scheduler::next_ready(uint32_t from) const {
  for (uint32_t j = from + 1; j < count_; ++j) {
    if (fibers_[j].state == FiberState::ready) return j;
  }
  return count_;
}

void Scheduler::enter(uint32_t i) {
  current_ = i;
  tls.thread_idx = fibers_[i].tid;
  tls.linear_tid = i;
}

void Scheduler::yield(FiberState state) {
  fibers_[current_].state = state;
  suspend();
}

uint64_t Scheduler::exchange(uint64_t value, uint32_t src_lane, const ShuffleSite* site) {
  Fiber& f = fibers_[current_];
  auto& slots = slots_[f.exchanges++ & 1];
  slots[current_] = value;
  yield(FiberState::wait_warp);
  const uint32_t ws = tls.warp_size;
  if (src_lane < ws && (active_[current_ / ws] >> src_lane & 1) != 0)
    return slots[current_ - current_ % ws + src_lane];
  if (site != nullptr) throw DeviceFault(inactive_read(*site, src_lane));
  // ds_bpermute reads 0 from a disabled lane; CUDA leaves the value undefined, and a value with
  // every bit set (NaN, -1) makes a result that depends on it fail its check.
  return ws == 64 ? 0 : ~uint64_t(0);
}

std::string Scheduler::inactive_read(const ShuffleSite& site, uint32_t src_lane) const {
  const uint32_t ws = tls.warp_size, warp = current_ / ws, base = warp * ws;
  std::string r = std::string("lane check: ") + site.what + " at " + site.file + ":" +
                  std::to_string(site.line) + " (in " + site.function + ") reads lane " +
                  std::to_string(src_lane);
  if (src_lane >= ws) {
    r += ", beyond the " + std::to_string(ws) + " lanes of a warp";
  } else if (base + src_lane >= count_) {
    r += " of warp " + std::to_string(warp) + ", which has no thread (the block's " +
         std::to_string(count_) + " threads end at its lane " + std::to_string(count_ - 1 - base) +
         ")";
  } else {
    r += " of warp " + std::to_string(warp) + ", whose thread exited before the shuffle";
  }
  const Index3 t = fibers_[current_].tid;
  return r + "; read by lane " + std::to_string(current_ % ws) + " (thread (" +
         std::to_string(t.x) + "," + std::to_string(t.y) + "," + std::to_string(t.z) +
         ")) of kernel '" + (tls.kernel != nullptr ? tls.kernel : "?") + "'";
}

uint64_t Scheduler::ballot(int predicate) {
  Fiber& f = fibers_[current_];
  auto& slots = slots_[f.exchanges++ & 1];
  slots[current_] = predicate != 0;
  yield(FiberState::wait_warp);
  const uint32_t ws = tls.warp_size, base = current_ - current_ % ws;
  // The lanes that voted, not the ones still running now: a lane resumed earlier in this pass
  // may have exited since.
  const uint64_t voted = active_[current_ / ws];
  uint64_t mask = 0;
  for (uint32_t l = 0; l < ws && base + l < count_; ++l) {
    if ((voted >> l & 1) != 0 && slots[base + l] != 0) mask |= 1ull << l;
  }
  return mask;
}

// After a pass: makes waiting threads ready again. False when nothing could be released.
bool Scheduler::release() {
  uint32_t ws = tls.warp_size;
  bool released = false;
  for (uint32_t base = 0; base < count_; base += ws) {
    uint32_t end = std::min(count_, base + ws), warp_waiting = 0, live = 0;
    for (uint32_t i = base; i < end; ++i) {
      if (fibers_[i].state == FiberState::done) continue;
      ++live;
      if (fibers_[i].state == FiberState::wait_warp) ++warp_waiting;
    }
    if (warp_waiting > 0 && warp_waiting == live) {
      uint64_t lanes = 0;
      for (uint32_t i = base; i < end; ++i) {
        if (fibers_[i].state != FiberState::wait_warp) continue;
        fibers_[i].state = FiberState::ready;
        lanes |= 1ull << (i - base);
      }
      active_[base / ws] = lanes;
      released = true;
    }
  }
  if (released) return true;
  for (const Fiber& f : fibers_) {
    if (f.state != FiberState::wait_block) return false;
  }
  for (uint32_t i = 0; i < count_; ++i) fibers_[i].state = FiberState::ready;
  return true;
}

std::string Scheduler::deadlock_report() const {
  uint32_t at_barrier = 0, at_warp = 0, exited = 0;
  for (uint32_t i = 0; i < count_; ++i) {
    switch (fibers_[i].state) {
      case FiberState::wait_block:
        ++at_barrier;
        break;
      case FiberState::wait_warp:
        ++at_warp;
        break;
      case FiberState::done:
        ++exited;
        break;
      default:
        break;
    }
  }
  std::string r = "barrier deadlock: " + std::to_string(at_barrier) + " of " +
                  std::to_string(count_) + " threads wait at __syncthreads";
  if (at_warp > 0) r += ", " + std::to_string(at_warp) + " at a warp collective";
  if (exited > 0) r += ", " + std::to_string(exited) + " exited without reaching it";
  return r;
}

void Scheduler::run_block(void (*fn)(void*), void* closure) {
  ThreadState& t = tls;
  const dim3 bd = t.block_dim;
  count_ = bd.x * bd.y * bd.z;
  reserve(count_);
  fibers_.assign(count_, Fiber{});
  slots_[0].assign(count_, 0);
  slots_[1].assign(count_, 0);
  active_.assign((count_ + t.warp_size - 1) / t.warp_size, 0);
  fn_ = fn;
  closure_ = closure;
  failed_ = false;
  error_.clear();
  uint32_t i = 0;
  for (uint32_t z = 0; z < bd.z; ++z) {
    for (uint32_t y = 0; y < bd.y; ++y) {
      for (uint32_t x = 0; x < bd.x; ++x, ++i) {
        fibers_[i].tid = Index3{x, y, z};
        fibers_[i].context = make_context(i);
      }
    }
  }
  t.scheduler = this;
  for (;;) {
    // One pass: every ready thread runs until it blocks or exits. Without AddressSanitizer the
    // threads hand over to each other and one resume covers the pass.
    for (i = next_ready(uint32_t(-1)); i < count_ && !failed_; i = next_ready(i)) {
      enter(i);
      resume(i);
      if (__sanitizer_start_switch_fiber == nullptr) break;
    }
    if (failed_) break;
    uint32_t finished = 0;
    for (const Fiber& f : fibers_) finished += f.state == FiberState::done;
    if (finished == count_) break;
    if (!release()) {
      failed_ = true;
      error_ = deadlock_report();
    }
  }
  t.scheduler = nullptr;
  // Threads left suspended are abandoned; their stacks are reused by the next block.
  if (failed_) throw DeviceFault(error_);
}

Scheduler& current_scheduler(const char* what) {
  auto* s = static_cast<Scheduler*>(tls.scheduler);
  if (s == nullptr) {
    throw DeviceFault(std::string(what) +
                      " reached in a kernel compiled without barrier support (the cpu device "
                      "did not see it in the source)");
  }
  return *s;
}

}  // namespace
}  // namespace kta_rt

using namespace kta_rt;

extern "C" {

void kta_rt_run_fibers(void (*thread_fn)(void*), void* closure) {
  if (t_scheduler == nullptr) t_scheduler = new Scheduler();  // one per OS thread, kept
  t_scheduler->run_block(thread_fn, closure);
}

void kta_rt_syncthreads() { current_scheduler("__syncthreads").yield(FiberState::wait_block); }

void kta_rt_syncwarp() { current_scheduler("__syncwarp").yield(FiberState::wait_warp); }

uint64_t kta_rt_warp_exchange(uint64_t value, uint32_t src_lane, const ShuffleSite* site) {
  return current_scheduler("a warp shuffle").exchange(value, src_lane, site);
}

uint64_t kta_rt_warp_ballot(int predicate) {
  return current_scheduler("a warp vote").ballot(predicate);
}

}  // extern "C"

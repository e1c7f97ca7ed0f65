#include "engine/report/progress.h"

#include <fmt/format.h>

namespace kta::engine {

namespace {

using SteadyClock = std::chrono::steady_clock;

std::string clock_text(double s) {
  if (s < 0) return "--:--";
  int t = static_cast<int>(s + 0.5);
  if (t >= 3600) return fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60);
  return fmt::format("{:02}:{:02}", t / 60, t % 60);
}

class StreamProgress : public Progress {
 public:
  StreamProgress(std::FILE* out, bool tty, size_t total)
      : out_(out), tty_(tty), total_(total), start_(SteadyClock::now()) {}

  void step_started(const std::string& job, const std::string& step) override {
    std::lock_guard lock(mu_);
    current_ = job + " " + step;
    if (tty_) status_line();
  }

  void step_finished(const std::string& job, const std::string& step, const std::string& outcome,
                     const std::string& reason, double seconds, bool resumed) override {
    std::lock_guard lock(mu_);
    ++finished_;
    if (!resumed) run_seconds_ += seconds;
    if (resumed) ++resumed_;
    std::string line = fmt::format("[{}/{}] {} {}: {}{}{}", finished_, total_, job, step, outcome,
                                   resumed ? " (resumed)" : fmt::format(" ({:.2f} s)", seconds),
                                   reason.empty() ? "" : " - " + reason);
    if (tty_) std::fputs("\r\033[K", out_);
    std::fputs((line + "\n").c_str(), out_);
    if (tty_) status_line();
    std::fflush(out_);
  }

  void done() override {
    std::lock_guard lock(mu_);
    if (tty_) std::fputs("\r\033[K", out_);
    std::fflush(out_);
  }

 private:
  void status_line() {
    double elapsed = std::chrono::duration<double>(SteadyClock::now() - start_).count();
    size_t ran = finished_ - resumed_;
    double eta = -1;
    if (ran > 0 && total_ >= finished_)
      eta = elapsed / static_cast<double>(ran) * static_cast<double>(total_ - finished_);
    std::string s = fmt::format("\r\033[K{}/{}  {}  elapsed {}  eta {}", finished_, total_,
                                current_, clock_text(elapsed), clock_text(eta));
    std::fputs(s.c_str(), out_);
    std::fflush(out_);
  }

  std::mutex mu_;
  std::FILE* out_;
  bool tty_;
  size_t total_;
  size_t finished_ = 0, resumed_ = 0;
  double run_seconds_ = 0;
  std::string current_;
  SteadyClock::time_point start_;
};

}  // namespace

std::unique_ptr<Progress> make_progress(std::FILE* out, bool tty, size_t total_steps) {
  return std::make_unique<StreamProgress>(out, tty, total_steps);
}

}  // namespace kta::engine

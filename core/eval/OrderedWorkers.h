// SPDX-License-Identifier: MIT
#pragma once
// Runs the evaluation's cases on a few threads while the evaluator takes their results strictly in
// case order, so that progress lines, stage callbacks, diagnostics and the verdict come out exactly as
// in a serial run (docs/architecture.md, "Evaluation caches and parallel cases"). Workers run at most
// `workers` cases ahead of the one being taken; once the evaluator stops taking (a failed case ends
// the evaluation), no further case is started and the destructor waits for the running ones.

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace kwb {

template <typename Result>
class OrderedWorkers {
 public:
  // `produce(k)` runs on a worker thread (or, with one worker, on the caller's thread inside take(k))
  // and must only touch what is its own or read-only.
  OrderedWorkers(std::size_t count, std::size_t workers, std::function<Result(std::size_t)> produce)
      : produce_(std::move(produce)), results_(count), errors_(count), done_(count, false) {
    workers_ = std::max<std::size_t>(1, std::min(workers, count));
    if (workers_ > 1)
      for (std::size_t i = 0; i < workers_; ++i) threads_.emplace_back([this] { work(); });
  }
  OrderedWorkers(const OrderedWorkers&) = delete;
  OrderedWorkers& operator=(const OrderedWorkers&) = delete;
  ~OrderedWorkers() {
    {
      const std::lock_guard lock(mutex_);
      stopped_ = true;
    }
    changed_.notify_all();
    for (auto& t : threads_) t.join();
  }

  // The result of case k; call with k = 0, 1, 2, ... in turn. Rethrows what produce(k) threw.
  Result take(std::size_t k) {
    if (threads_.empty()) return produce_(k);
    std::unique_lock lock(mutex_);
    taking_ = k;
    changed_.notify_all();
    changed_.wait(lock, [&] { return done_[k]; });
    if (errors_[k]) std::rethrow_exception(errors_[k]);
    Result r = std::move(*results_[k]);
    results_[k].reset();
    return r;
  }

 private:
  void work() {
    for (;;) {
      std::size_t k = 0;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock,
                      [&] { return stopped_ || next_ >= results_.size() || next_ < taking_ + workers_; });
        if (stopped_ || next_ >= results_.size()) return;
        k = next_++;
      }
      std::optional<Result> r;
      std::exception_ptr error;
      try {
        r.emplace(produce_(k));
      } catch (...) {
        error = std::current_exception();
      }
      {
        const std::lock_guard lock(mutex_);
        results_[k] = std::move(r);
        errors_[k] = error;
        done_[k] = true;
      }
      changed_.notify_all();
    }
  }

  std::function<Result(std::size_t)> produce_;
  std::vector<std::optional<Result>> results_;
  std::vector<std::exception_ptr> errors_;
  std::vector<bool> done_;
  std::size_t workers_ = 1;
  std::size_t next_ = 0;    // the next case a worker starts
  std::size_t taking_ = 0;  // the case the evaluator waits for
  bool stopped_ = false;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::thread> threads_;
};

}  // namespace kwb

// MetricsRegistry: counters kept live, gauges computed when scraped, written
// out in the Prometheus text exposition format (version 0.0.4).
//
// Thread-safe: counter(), add_collector() and scrape() from any thread; a
// Counter's inc() is a relaxed atomic add. Disabled, scrape() returns "" and
// counters keep counting (cheap), so turning metrics on later loses nothing.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "mailroom/counter.hpp"
#include "mailroom/metric_labels.hpp"
#include "mailroom/metrics_writer.hpp"

namespace mailroom {

using MetricsCollector = std::function<void(MetricsWriter&)>;

class MetricsRegistry {
 public:
  MetricsRegistry() = default;
  MetricsRegistry(const MetricsRegistry&) = delete;
  MetricsRegistry& operator=(const MetricsRegistry&) = delete;

  // The series `name{labels}`, created at zero on first use; the same name and
  // labels (same order) give the same Counter. The reference stays valid for
  // the registry's lifetime. The first help given for a name is kept. Invalid
  // names → OptionsError{"MetricsRegistry", "name" | "label", value}.
  Counter& counter(std::string name, std::string help, Labels labels = {});

  // Removes the series of counter family `name` that carry label == value
  // (an actor's series once it stopped, so they leave /metrics). Only for
  // families whose Counters are looked up at each use, never held: a
  // reference to a removed series dangles. Returns how many went.
  std::size_t forget_series(std::string_view name, std::string_view label, std::string_view value);

  // Called at every scrape, outside the registry's lock, to write gauges.
  // A gauge whose name is already a counter family is left out.
  void add_collector(MetricsCollector collector);

  // Families sorted by name, each with HELP and TYPE once, then its samples
  // sorted by labels. "" when disabled.
  std::string scrape() const;

  void set_enabled(bool enabled) noexcept { enabled_.store(enabled, std::memory_order_relaxed); }
  bool enabled() const noexcept { return enabled_.load(std::memory_order_relaxed); }

 private:
  struct CounterFamily {
    std::string help;
    std::map<Labels, std::unique_ptr<Counter>> series;
  };

  std::atomic<bool> enabled_{true};
  mutable std::mutex mutex_;
  std::map<std::string, CounterFamily> counters_;
  std::vector<MetricsCollector> collectors_;
};

}  // namespace mailroom

// MetricsWriter: what a scrape-time collector writes its gauges into. Only
// MetricsRegistry::scrape creates one; a collector just calls gauge().
#pragma once

#include <string>
#include <vector>

#include "mailroom/metric_labels.hpp"

namespace mailroom {

class MetricsWriter {
 public:
  struct GaugeSample {
    std::string name;
    std::string help;
    Labels labels;
    double value;
  };

  // One gauge sample. Invalid metric or label names → OptionsError
  // {"MetricsRegistry", "name" | "label", value}.
  void gauge(std::string name, std::string help, Labels labels, double value);

  const std::vector<GaugeSample>& samples() const noexcept { return samples_; }

 private:
  std::vector<GaugeSample> samples_;
};

}  // namespace mailroom

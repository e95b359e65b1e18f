#include "mailroom/metrics_writer.hpp"

#include <utility>

#include "prometheus_text.hpp"

namespace mailroom {

void MetricsWriter::gauge(std::string name, std::string help, Labels labels, double value) {
  detail::check_metric_name(name);
  detail::check_label_names(labels);
  samples_.push_back(GaugeSample{std::move(name), std::move(help), std::move(labels), value});
}

}  // namespace mailroom

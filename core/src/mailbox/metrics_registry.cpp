#include "mailroom/metrics_registry.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "number_text.hpp"
#include "prometheus_text.hpp"

namespace mailroom {

namespace {

// One family as it is written: header once, then its lines in label order.
struct FamilyText {
  std::string help;
  const char* type;
  std::vector<std::pair<Labels, std::string>> samples;  // labels, value text
};

void write_family(std::string& out, const std::string& name, FamilyText& family) {
  std::stable_sort(family.samples.begin(), family.samples.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  out += "# HELP " + name + ' ' + detail::escape_help(family.help) + '\n';
  out += "# TYPE " + name + ' ' + family.type + '\n';
  for (const auto& [labels, value] : family.samples) {
    out += name + detail::format_labels(labels) + ' ' + value + '\n';
  }
}

}  // namespace

Counter& MetricsRegistry::counter(std::string name, std::string help, Labels labels) {
  detail::check_metric_name(name);
  detail::check_label_names(labels);
  std::lock_guard lock(mutex_);
  auto [family, created] = counters_.try_emplace(std::move(name));
  if (created) family->second.help = std::move(help);
  auto& series = family->second.series[std::move(labels)];
  if (!series) series = std::make_unique<Counter>();
  return *series;
}

std::size_t MetricsRegistry::forget_series(std::string_view name, std::string_view label,
                                           std::string_view value) {
  std::lock_guard lock(mutex_);
  auto family = counters_.find(std::string(name));
  if (family == counters_.end()) return 0;
  auto& series = family->second.series;
  std::size_t removed = 0;
  for (auto it = series.begin(); it != series.end();) {
    const bool match = std::any_of(it->first.begin(), it->first.end(), [&](const auto& l) {
      return l.first == label && l.second == value;
    });
    if (match) {
      it = series.erase(it);
      ++removed;
    } else {
      ++it;
    }
  }
  if (series.empty()) counters_.erase(family);
  return removed;
}

void MetricsRegistry::add_collector(MetricsCollector collector) {
  if (!collector) return;
  std::lock_guard lock(mutex_);
  collectors_.push_back(std::move(collector));
}

std::string MetricsRegistry::scrape() const {
  if (!enabled()) return {};

  std::vector<MetricsCollector> collectors;
  {
    std::lock_guard lock(mutex_);
    collectors = collectors_;
  }
  // Collectors are runtime code that may itself take locks (or register a
  // counter): never call them under ours.
  MetricsWriter writer;
  for (const auto& collect : collectors) collect(writer);

  std::map<std::string, FamilyText> families;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [name, family] : counters_) {
      FamilyText& text = families[name];
      text.help = family.help;
      text.type = "counter";
      for (const auto& [labels, counter] : family.series) {
        text.samples.emplace_back(labels, std::to_string(counter->value()));
      }
    }
  }
  for (const auto& sample : writer.samples()) {
    auto [it, created] = families.try_emplace(sample.name);
    if (created) {
      it->second.help = sample.help;
      it->second.type = "gauge";
    } else if (std::string_view(it->second.type) != "gauge") {
      continue;  // one name, one type: the counter family keeps it
    }
    it->second.samples.emplace_back(sample.labels, detail::prometheus_number_text(sample.value));
  }

  std::string out;
  for (auto& [name, family] : families) write_family(out, name, family);
  return out;
}

}  // namespace mailroom

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "mailroom/errors.hpp"
#include "mailroom/metrics_registry.hpp"

namespace mailroom {
namespace {

// Families sorted by name, HELP and TYPE once each, samples sorted by labels, label values escaped.
TEST(MetricsRegistry, ScrapeWritesThePrometheusTextFormat) {
  MetricsRegistry registry;
  registry
      .counter("actor_mailbox_dropped_total", "Messages dropped by a mailbox bound.",
               {{"class", "Sensor"}, {"path", "/user/sensors"}, {"policy", "drop-head"}})
      .inc(2);
  registry
      .counter("actor_mailbox_dropped_total", "ignored: the first help wins",
               {{"class", "Sensor"}, {"path", "/user/a\"b\\c\nd"}, {"policy", "drop-new"}})
      .inc();
  registry.counter("actor_dead_letters_total", "Dead letters.", {{"outcome", "captured"}}).inc(5);
  registry.add_collector([](MetricsWriter& writer) {
    writer.gauge("actor_mailbox_size", "Pending user messages.\nPer actor \\ path.",
                 {{"class", "Sensor"}, {"path", "/user/z"}}, 3);
    writer.gauge("actor_mailbox_size", "", {{"class", "Sensor"}, {"path", "/user/b"}}, 2.5);
  });
  EXPECT_EQ(registry.scrape(),
            "# HELP actor_dead_letters_total Dead letters.\n"
            "# TYPE actor_dead_letters_total counter\n"
            "actor_dead_letters_total{outcome=\"captured\"} 5\n"
            "# HELP actor_mailbox_dropped_total Messages dropped by a mailbox bound.\n"
            "# TYPE actor_mailbox_dropped_total counter\n"
            "actor_mailbox_dropped_total{class=\"Sensor\",path=\"/user/a\\\"b\\\\c\\nd\","
            "policy=\"drop-new\"} 1\n"
            "actor_mailbox_dropped_total{class=\"Sensor\",path=\"/user/sensors\","
            "policy=\"drop-head\"} 2\n"
            "# HELP actor_mailbox_size Pending user messages.\\nPer actor \\\\ path.\n"
            "# TYPE actor_mailbox_size gauge\n"
            "actor_mailbox_size{class=\"Sensor\",path=\"/user/b\"} 2.5\n"
            "actor_mailbox_size{class=\"Sensor\",path=\"/user/z\"} 3\n");
}

// A series without labels is written bare; special gauge values use Prometheus spellings.
TEST(MetricsRegistry, WritesBareSeriesAndSpecialValues) {
  MetricsRegistry registry;
  registry.counter("jobs_total", "Jobs.").inc(0);
  registry.add_collector([](MetricsWriter& writer) {
    writer.gauge("g", "G.", {{"v", "nan"}}, std::numeric_limits<double>::quiet_NaN());
    writer.gauge("g", "G.", {{"v", "pos"}}, std::numeric_limits<double>::infinity());
    writer.gauge("g", "G.", {{"v", "neg"}}, -std::numeric_limits<double>::infinity());
    writer.gauge("g", "G.", {{"v", "small"}}, 0.1);
  });
  EXPECT_EQ(registry.scrape(),
            "# HELP g G.\n# TYPE g gauge\n"
            "g{v=\"nan\"} NaN\ng{v=\"neg\"} -Inf\ng{v=\"pos\"} +Inf\ng{v=\"small\"} 0.1\n"
            "# HELP jobs_total Jobs.\n# TYPE jobs_total counter\njobs_total 0\n");
}

// The same name and labels give the same Counter, at a stable address.
TEST(MetricsRegistry, SameSeriesGivesTheSameCounter) {
  MetricsRegistry registry;
  Counter& first = registry.counter("c_total", "C.", {{"a", "1"}});
  for (int i = 0; i < 100; ++i) registry.counter("c_total", "C.", {{"a", std::to_string(i + 2)}});
  Counter& again = registry.counter("c_total", "C.", {{"a", "1"}});
  EXPECT_EQ(&first, &again);
  first.inc();
  again.inc(2);
  EXPECT_EQ(first.value(), 3u);
}

// Disabled, scrape is empty but counters keep counting; enabled again, nothing was lost.
TEST(MetricsRegistry, DisabledScrapesNothingButCountersStillCount) {
  MetricsRegistry registry;
  EXPECT_TRUE(registry.enabled());
  registry.set_enabled(false);
  Counter& counter = registry.counter("c_total", "C.");
  counter.inc(4);
  EXPECT_EQ(registry.scrape(), "");
  registry.set_enabled(true);
  EXPECT_EQ(registry.scrape(), "# HELP c_total C.\n# TYPE c_total counter\nc_total 4\n");
}

// A gauge that reuses a counter's name is left out: one name, one type.
TEST(MetricsRegistry, GaugeCannotShadowACounterFamily) {
  MetricsRegistry registry;
  registry.counter("x_total", "X.").inc();
  registry.add_collector([](MetricsWriter& writer) { writer.gauge("x_total", "", {}, 9); });
  EXPECT_EQ(registry.scrape(), "# HELP x_total X.\n# TYPE x_total counter\nx_total 1\n");
}

// Invalid metric and label names are OptionsErrors naming the offending value.
TEST(MetricsRegistry, InvalidNamesAreOptionsErrors) {
  MetricsRegistry registry;
  auto error = [](auto&& make) -> std::string {
    try {
      make();
    } catch (const OptionsError& e) {
      return e.family() + "/" + e.field() + "/" + e.value();
    }
    return "no error";
  };
  EXPECT_EQ(error([&] { registry.counter("9lives", ""); }), "MetricsRegistry/name/9lives");
  EXPECT_EQ(error([&] { registry.counter("a-b", ""); }), "MetricsRegistry/name/a-b");
  EXPECT_EQ(error([&] {
              registry.counter("ok", "", {{"bad-label", "v"}});
            }),
            "MetricsRegistry/label/bad-label");
  EXPECT_EQ(error([&] {
              registry.counter("ok", "", {{"__reserved", "v"}});
            }),
            "MetricsRegistry/label/__reserved");
  EXPECT_EQ(error([&] {
              registry.counter("ok", "", {{"a", "1"}, {"a", "2"}});
            }),
            "MetricsRegistry/label/a");
  registry.add_collector([](MetricsWriter& writer) { writer.gauge("", "", {}, 1); });
  EXPECT_EQ(error([&] { registry.scrape(); }), "MetricsRegistry/name/");
}

// A collector runs outside the registry's lock (before counters are read), so it may use counters
// itself.
TEST(MetricsRegistry, CollectorMayUseTheRegistry) {
  MetricsRegistry registry;
  registry.add_collector(
      [&registry](MetricsWriter&) { registry.counter("scrapes_total", "S.").inc(); });
  registry.scrape();
  EXPECT_EQ(registry.scrape(),
            "# HELP scrapes_total S.\n# TYPE scrapes_total counter\nscrapes_total 2\n");
}

// Many threads incrementing and registering at once lose no increment.
TEST(MetricsRegistry, CountsExactlyUnderConcurrentUse) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  MetricsRegistry registry;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&registry, t] {
      for (int i = 0; i < 10000; ++i) {
        registry.counter("hits_total", "H.", {{"shard", std::to_string(i % 2)}}).inc();
        if (i % 1000 == 0) registry.scrape();
      }
      (void)t;
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(registry.counter("hits_total", "H.", {{"shard", "0"}}).value(), 20000u);
  EXPECT_EQ(registry.counter("hits_total", "H.", {{"shard", "1"}}).value(), 20000u);
}

}  // namespace
}  // namespace mailroom

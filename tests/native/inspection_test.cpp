#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <string>
#include <typeinfo>

#include "mailroom/actor_system.hpp"
#include "mailroom/metrics_registry.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;
using testing::EventLog;
using testing::LambdaActor;
using testing::ManualSystem;

// A snapshot row per actor below the guardians (/user and /system), none for guardians.
TEST(Inspection, SnapshotsDescribeEveryActorButTheGuardians) {
  ManualSystem t;
  auto ref =
      t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "a",
                      ActorOptions().with_mailbox_capacity(5).with_mailbox_overflow("drop-new"));
  t.system->spawn_system_actor(testing::recorder(std::make_shared<EventLog>()), "helper");
  t.run();
  ref.tell("x"s);
  t.run();
  ref.tell("y"s);
  ref.tell("z"s);
  auto rows = t.system->inspect();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].path, "/user/a");
  EXPECT_EQ(rows[0].class_name, "LambdaActor");
  EXPECT_EQ(rows[0].mailbox_kind, "bounded");
  EXPECT_EQ(rows[0].capacity, 5u);
  EXPECT_EQ(rows[0].overflow, "drop-new");
  EXPECT_EQ(rows[0].user_depth, 2u);
  EXPECT_EQ(rows[0].system_depth, 0u);
  EXPECT_EQ(rows[0].processed, 1u);
  EXPECT_FALSE(rows[0].suspended);
  EXPECT_EQ(rows[1].path, "/system/helper");
  EXPECT_EQ(rows[1].mailbox_kind, "unbounded");
  EXPECT_EQ(rows[1].capacity, std::nullopt);
  EXPECT_EQ(rows[1].overflow, std::nullopt);
}

// actor_mailbox_size{class,path} is computed at scrape; metrics can be turned off.
TEST(Inspection, MailboxSizeGaugeIsComputedAtScrape) {
  ManualSystem t;
  auto ref = t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "a");
  t.run();
  ref.tell(1);
  ref.tell(2);
  const auto scrape = t.system->metrics().scrape();
  EXPECT_NE(scrape.find(R"(actor_mailbox_size{class="LambdaActor",path="/user/a"} 2)"),
            std::string::npos)
      << scrape;
  ManualSystem off("off", ActorSystemOptions().with_metrics(false));
  EXPECT_EQ(off.system->metrics().scrape(), "");
}

class SensorSink : public Actor {
 public:
  void receive(const Message&) override {}
};

// The series of one actor in a scrape, or "" (the line up to its value).
std::string series(const std::string& scrape, const std::string& metric, const std::string& path) {
  std::size_t at = 0;
  while ((at = scrape.find(metric + "{", at)) != std::string::npos) {
    const std::size_t end = scrape.find('\n', at);
    std::string line = scrape.substr(at, end - at);
    if (line.find("path=\"" + path + "\"") != std::string::npos) return line;
    at = end;
  }
  return "";
}

// spawn<A> names A from the moment the actor exists: a drop before its first
// turn is labelled with the class in inspect(), the size gauge and the drop counter.
TEST(Inspection, SpawnOfATypeNamesItsClassBeforeTheFirstTurn) {
  ManualSystem t;
  auto ref = t.system->spawn<SensorSink>(
      "sensors", ActorOptions().with_mailbox_capacity(1).with_mailbox_overflow("drop-new"));
  ref.tell(1);
  ref.tell(2);  // dropped: Create has not run yet
  const std::string name = demangle(typeid(SensorSink).name());
  ASSERT_NE(name.find("SensorSink"), std::string::npos) << name;
  auto rows = t.system->inspect();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].class_name, name);
  EXPECT_EQ(rows[0].dropped, 1u);
  const auto scrape = t.system->metrics().scrape();
  EXPECT_EQ(series(scrape, "actor_mailbox_dropped_total", "/user/sensors"),
            "actor_mailbox_dropped_total{class=\"" + name +
                "\",path=\"/user/sensors\",policy=\"drop-new\"} 1")
      << scrape;
  EXPECT_EQ(series(scrape, "actor_mailbox_size", "/user/sensors"),
            "actor_mailbox_size{class=\"" + name + "\",path=\"/user/sensors\"} 1")
      << scrape;
}

// A stopped actor's drop series leave /metrics (300 stopped actors left 303
// of 315 series in a real Prometheus); a live one's stay.
TEST(Inspection, DropSeriesOfAStoppedActorLeaveTheScrape) {
  ManualSystem t;
  const auto bounded = ActorOptions().with_mailbox_capacity(1).with_mailbox_overflow("drop-new");
  auto gone = t.system->spawn<SensorSink>("gone", bounded);
  auto kept = t.system->spawn<SensorSink>("kept", bounded);
  for (ActorRef* ref : {&gone, &kept}) {
    ref->tell(1);
    ref->tell(2);  // dropped: Create has not run yet
  }
  const auto before = t.system->metrics().scrape();
  ASSERT_NE(series(before, "actor_mailbox_dropped_total", "/user/gone"), "") << before;
  t.system->stop(gone);
  t.run();
  const auto after = t.system->metrics().scrape();
  EXPECT_EQ(series(after, "actor_mailbox_dropped_total", "/user/gone"), "") << after;
  EXPECT_NE(series(after, "actor_mailbox_dropped_total", "/user/kept"), "") << after;
}

// A factory spawn is named by ActorOptions::with_class_name until its instance
// exists, then by the instance's class_name(); without a hint it is "" until then.
TEST(Inspection, ClassNameHintNamesAFactorySpawnUntilTheInstanceNamesItself) {
  ManualSystem t;
  auto hinted = t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "hinted",
                                ActorOptions()
                                    .with_mailbox_capacity(1)
                                    .with_mailbox_overflow("drop-head")
                                    .with_class_name("Telemetry"));
  t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "plain");
  hinted.tell(1);
  hinted.tell(2);  // drops 1
  auto rows = t.system->inspect();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].path, "/user/hinted");
  EXPECT_EQ(rows[0].class_name, "Telemetry");
  EXPECT_EQ(rows[1].class_name, "");
  EXPECT_EQ(
      series(t.system->metrics().scrape(), "actor_mailbox_dropped_total", "/user/hinted"),
      R"(actor_mailbox_dropped_total{class="Telemetry",path="/user/hinted",policy="drop-head"} 1)");
  t.run();
  rows = t.system->inspect();
  EXPECT_EQ(rows[0].class_name, "LambdaActor");
  EXPECT_EQ(rows[1].class_name, "LambdaActor");
}

// inspect() over 10,000 actors: printed, not asserted (it runs at 10 Hz in the panel).
TEST(Inspection, InspectingTenThousandActorsIsCheap) {
  ManualSystem t;
  for (int i = 0; i < 10000; ++i) {
    t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "a" + std::to_string(i));
  }
  t.run();
  const auto start = std::chrono::steady_clock::now();
  auto rows = t.system->inspect();
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  EXPECT_EQ(rows.size(), 10000u);
  std::cout << "[ inspect ] 10000 actors in " << us << " us\n";
}

}  // namespace
}  // namespace mailroom

#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <string>

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

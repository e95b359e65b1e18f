// DeadLetterQueueOptions: builder, HOCON block, precedence per field, validation.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/hocon_config.hpp"

namespace mailroom {
namespace {

// Runs f, which must throw OptionsError; returns "family/field/value".
template <class F>
std::string options_error(F&& f) {
  try {
    f();
  } catch (const OptionsError& e) {
    return e.family() + "/" + e.field() + "/" + e.value();
  }
  return "no error";
}

// Without options or config every field has its built-in default.
TEST(DeadLetterQueueOptions, DefaultsWhenNothingIsSet) {
  const auto s = DeadLetterQueueOptions::create().resolve(nullptr, "orders");
  EXPECT_EQ(s.store, DeadLetterStore::kOff);
  EXPECT_EQ(s.max_entries, 1000u);
  EXPECT_EQ(s.retention_ms, 3600000);
  EXPECT_EQ(s.max_replays, 3u);
  EXPECT_EQ(s.persistence_id, "mailroom-dead-letters-orders");
}

// The seed's builder example resolves to exactly those values.
TEST(DeadLetterQueueOptions, BuilderSetsEveryField) {
  const auto s = DeadLetterQueueOptions::create()
                     .with_store("persistent")
                     .with_max_entries(5000)
                     .with_retention_ms(6 * 60 * 60 * 1000)
                     .with_max_replays(0)
                     .with_persistence_id("custom")
                     .resolve(nullptr, "orders");
  EXPECT_EQ(s.store, DeadLetterStore::kPersistent);
  EXPECT_EQ(s.max_entries, 5000u);
  EXPECT_EQ(s.retention_ms, 21600000);
  EXPECT_EQ(s.max_replays, 0u);
  EXPECT_EQ(s.persistence_id, "custom");
}

// The HOCON block under mailroom.dead-letters configures the queue.
TEST(DeadLetterQueueOptions, HoconBlockConfiguresTheQueue) {
  const auto config = HoconConfig::parse(R"(
    mailroom.dead-letters {
      store       = "memory"
      max-entries = 250
      retention   = 2m
      max-replays = 5
      persistence-id = dl-main
    }
  )");
  const auto s = DeadLetterQueueOptions::create().resolve(&config, "orders");
  EXPECT_EQ(s.store, DeadLetterStore::kMemory);
  EXPECT_EQ(s.max_entries, 250u);
  EXPECT_EQ(s.retention_ms, 120000);
  EXPECT_EQ(s.max_replays, 5u);
  EXPECT_EQ(s.persistence_id, "dl-main");
}

// The seed's own `actor-ts.dead-letters` block is read as an alias; `mailroom.` wins per key.
TEST(DeadLetterQueueOptions, SeedBlockIsAnAliasAndMailroomWins) {
  const auto config = HoconConfig::parse(R"(
    actor-ts.dead-letters {
      store       = "memory"
      max-entries = 1000
      retention   = 1h
      max-replays = 3
    }
    mailroom.dead-letters.max-entries = 42
  )");
  const auto s = DeadLetterQueueOptions::create().resolve(&config, "orders");
  EXPECT_EQ(s.store, DeadLetterStore::kMemory);
  EXPECT_EQ(s.max_entries, 42u);
  EXPECT_EQ(s.retention_ms, 3600000);
  EXPECT_EQ(s.max_replays, 3u);
}

// Precedence is per field: an explicit option beats HOCON, an unset one never shadows it.
TEST(DeadLetterQueueOptions, ExplicitBeatsHoconBeatsDefaultsPerField) {
  const auto config = HoconConfig::parse(
      "mailroom.dead-letters { store = memory, max-entries = 10, retention = 5s }");
  const auto s = DeadLetterQueueOptions::create().with_max_entries(20).resolve(&config, "x");
  EXPECT_EQ(s.store, DeadLetterStore::kMemory);  // HOCON
  EXPECT_EQ(s.max_entries, 20u);                 // explicit
  EXPECT_EQ(s.retention_ms, 5000);               // HOCON
  EXPECT_EQ(s.max_replays, 3u);                  // default
  EXPECT_EQ(s.persistence_id, "mailroom-dead-letters-x");
}

// An empty persistence-id in HOCON is refused as with_persistence_id("") is
// (issue 27): leaving the key out is how a file keeps the derived default.
TEST(DeadLetterQueueOptions, EmptyHoconPersistenceIdIsAConfigErrorNamingTheKey) {
  const auto config = HoconConfig::parse("mailroom.dead-letters.persistence-id = \"\"");
  try {
    DeadLetterQueueOptions::create().resolve(&config, "b");
    ADD_FAILURE() << "no ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("mailroom.dead-letters.persistence-id"), std::string::npos)
        << e.what();
    EXPECT_EQ(e.line(), 1);
  }
}

// Bad values from code are named errors with family, field and value.
TEST(DeadLetterQueueOptions, InvalidBuilderValuesAreNamedErrors) {
  auto o = DeadLetterQueueOptions::create();
  EXPECT_EQ(options_error([&] { o.with_store("log"); }), "DeadLetterQueueOptions/store/log");
  EXPECT_EQ(options_error([&] { o.with_max_entries(0); }), "DeadLetterQueueOptions/maxEntries/0");
  EXPECT_EQ(options_error([&] { o.with_max_entries(1.5); }),
            "DeadLetterQueueOptions/maxEntries/1.5");
  EXPECT_EQ(options_error([&] { o.with_max_entries(std::numeric_limits<double>::quiet_NaN()); }),
            "DeadLetterQueueOptions/maxEntries/NaN");  // as JS spells it
  EXPECT_EQ(options_error([&] { o.with_retention_ms(-1); }),
            "DeadLetterQueueOptions/retentionMs/-1");
  EXPECT_EQ(options_error([&] { o.with_max_replays(-2); }), "DeadLetterQueueOptions/maxReplays/-2");
  EXPECT_EQ(options_error([&] { o.with_persistence_id(""); }),
            "DeadLetterQueueOptions/persistenceId/");
  // Nothing was set by the failed calls.
  EXPECT_FALSE(o.store().has_value());
  EXPECT_FALSE(o.max_entries().has_value());
  EXPECT_NO_THROW(o.with_retention_ms(0).with_max_replays(0).with_max_entries(1));
}

// Bad values from HOCON are the same named errors, with the value as written.
TEST(DeadLetterQueueOptions, InvalidHoconValuesAreNamedErrors) {
  auto resolve = [](const char* text) {
    const auto config = HoconConfig::parse(text);
    return options_error([&] { DeadLetterQueueOptions::create().resolve(&config, "x"); });
  };
  EXPECT_EQ(resolve("mailroom.dead-letters.store = disk"), "DeadLetterQueueOptions/store/disk");
  EXPECT_EQ(resolve("mailroom.dead-letters.max-entries = 0"),
            "DeadLetterQueueOptions/maxEntries/0");
  EXPECT_EQ(resolve("mailroom.dead-letters.max-replays = 2.5"),
            "DeadLetterQueueOptions/maxReplays/2.5");
}

// A HOCON value of the wrong type keeps ConfigError's line and column.
TEST(DeadLetterQueueOptions, WrongHoconTypeIsAConfigErrorWithPosition) {
  const auto config = HoconConfig::parse("mailroom.dead-letters {\n  max-entries = lots\n}");
  try {
    DeadLetterQueueOptions::create().resolve(&config, "x");
    FAIL() << "expected ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 17);
  }
}

// A bad HOCON value fails even when an explicit option overrides it: the file itself is wrong.
TEST(DeadLetterQueueOptions, InvalidHoconIsReportedEvenWhenOverridden) {
  const auto config = HoconConfig::parse("mailroom.dead-letters.store = disk");
  EXPECT_EQ(options_error([&] {
              DeadLetterQueueOptions::create().with_store("memory").resolve(&config, "x");
            }),
            "DeadLetterQueueOptions/store/disk");
}

}  // namespace
}  // namespace mailroom

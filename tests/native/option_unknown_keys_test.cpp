// A misspelled option key is refused, never ignored (the seeds reject rather
// than silently ignore configuration; a typo would leave its setting at the
// default without a word): OptionsError names the key and the nearest known
// one, for the option families' fields (the dynamically typed front doors ask
// the core) and for the HOCON dead-letters block.
#include <gtest/gtest.h>

#include <string>

#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/detail/nearest_name.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/hocon_config.hpp"
#include "mailroom/option_schema.hpp"

namespace mailroom {
namespace {

// A field the family does not name is an OptionsError naming it and its nearest field.
TEST(OptionUnknownKeys, MisspelledFieldsNameTheNearestField) {
  const auto error = unknown_option_field("ActorOptions", "mailboxCapactiy", "3");
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->family(), "ActorOptions");
  EXPECT_EQ(error->field(), "mailboxCapactiy");
  EXPECT_EQ(error->value(), "3");
  EXPECT_STREQ(error->what(),
               "ActorOptions.mailboxCapactiy = 3: is not an ActorOptions field (did you mean "
               "mailboxCapacity?)");
  EXPECT_THROW(check_option_field_known("BoundedMailbox", "overflw", "drop-new"), OptionsError);
  EXPECT_NE(
      std::string(unknown_option_field("PriorityMailbox", "priorityfor", "a function")->what())
          .find("did you mean priorityFor?"),
      std::string::npos);
  // Known fields, and families the table does not describe, pass.
  EXPECT_FALSE(unknown_option_field("ActorOptions", "mailboxCapacity", "3").has_value());
  EXPECT_FALSE(unknown_option_field("NoSuchFamily", "x", "1").has_value());
  EXPECT_NO_THROW(check_option_field_known("DeadLetterQueueOptions", "maxReplays", "3"));
}

// Nothing near: no guess, the known fields are listed instead.
TEST(OptionUnknownKeys, AFieldNothingResemblesListsTheKnownFields) {
  const auto error = unknown_option_field("DeadLetterQueueOptions", "colour", "red");
  ASSERT_TRUE(error.has_value());
  const std::string what = error->what();
  EXPECT_EQ(what.find("did you mean"), std::string::npos) << what;
  EXPECT_NE(what.find("known: store, maxEntries, retentionMs, maxReplays, persistenceId"),
            std::string::npos)
      << what;
}

// The nearest name: swapped letters and case count as one slip; far names are no guess.
TEST(OptionUnknownKeys, NearestNameIsAGuessOnlyWhenClose) {
  const std::vector<std::string_view> known = {"store", "max-entries", "retention", "max-replays"};
  EXPECT_EQ(detail::nearest_name("stor", known), "store");
  EXPECT_EQ(detail::nearest_name("max-entires", known), "max-entries");
  EXPECT_EQ(detail::nearest_name("Max-Replays", known), "max-replays");
  EXPECT_EQ(detail::nearest_name("colour", known), std::nullopt);
  EXPECT_EQ(detail::nearest_name("", known), std::nullopt);
}

// HOCON: a key the dead-letters block does not know is refused under either spelling of the block.
TEST(OptionUnknownKeys, HoconDeadLettersBlockRefusesUnknownKeys) {
  const HoconConfig ours = HoconConfig::parse("mailroom.dead-letters {\n  stor = \"memory\"\n}\n");
  try {
    (void)DeadLetterQueueOptions::create().resolve(&ours, "sys");
    ADD_FAILURE() << "stor was ignored";
  } catch (const OptionsError& e) {
    EXPECT_EQ(e.family(), "DeadLetterQueueOptions");
    EXPECT_EQ(e.field(), "mailroom.dead-letters.stor");
    EXPECT_NE(std::string(e.what()).find("did you mean store?"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
  const HoconConfig seed = HoconConfig::parse("actor-ts.dead-letters.max-replay = 2");
  EXPECT_THROW((void)DeadLetterQueueOptions::create().resolve(&seed, "sys"), OptionsError);
  // Known keys and other blocks are untouched.
  const HoconConfig fine = HoconConfig::parse(
      "mailroom { dead-letters { store = memory, max-entries = 5 }, logger.level = info }");
  EXPECT_EQ(DeadLetterQueueOptions::create().resolve(&fine, "sys").max_entries, 5u);
}

}  // namespace
}  // namespace mailroom

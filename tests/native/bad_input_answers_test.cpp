// Bad input gets a named answer, never a silent guess (issue 27): an empty
// journal folder, HOCON blocks written as values, a byte-order mark, and
// dead-letter entry ids spelled another way than the queue writes them.
#include <gtest/gtest.h>

#include <string>

#include "mailroom/actor_path.hpp"
#include "mailroom/actor_system_options.hpp"
#include "mailroom/dead_letter_entry_id.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/hocon_config.hpp"

namespace mailroom {
namespace {

// The ConfigError's message when resolving the dead-letter settings of `text`, else "".
std::string config_error(const std::string& text) {
  try {
    const auto config = HoconConfig::parse(text);
    DeadLetterQueueOptions::create().resolve(&config, "b");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(BadInputAnswers, EmptyJournalDirIsAnOptionsErrorNamingTheOption) {
  try {
    ActorSystemOptions::create().with_journal_dir("");
    ADD_FAILURE() << "no OptionsError";
  } catch (const OptionsError& e) {
    EXPECT_EQ(e.family(), "ActorSystemOptions");
    EXPECT_EQ(e.field(), "journalDir");
  }
}

TEST(BadInputAnswers, DeadLettersBlockWrittenAsAValueIsAConfigErrorNamingTheKey) {
  const std::string what = config_error("mailroom.dead-letters = 5");
  EXPECT_NE(what.find("mailroom.dead-letters: expected an object"), std::string::npos) << what;
}

TEST(BadInputAnswers, MailroomWrittenAsAValueIsAConfigErrorNamingTheKey) {
  const std::string what = config_error("mailroom = 5");
  EXPECT_NE(what.find("mailroom: expected an object"), std::string::npos) << what;
  EXPECT_NE(config_error("actor-ts = \"x\"").find("actor-ts: expected an object"),
            std::string::npos);
}

TEST(BadInputAnswers, NullBlocksStillMeanUnset) {
  EXPECT_EQ(config_error("mailroom = null"), "");
  EXPECT_EQ(config_error("mailroom.dead-letters = null"), "");
}

TEST(BadInputAnswers, ByteOrderMarkIsReadAsTheSameTextWithoutIt) {
  const auto config = HoconConfig::parse("\xEF\xBB\xBFmailroom.dead-letters.max-entries = 7");
  EXPECT_EQ(config.get_number("mailroom.dead-letters.max-entries"), 7.0);
  EXPECT_EQ(DeadLetterQueueOptions::create().resolve(&config, "b").max_entries, 7u);
}

TEST(BadInputAnswers, EntryIdsMatchOnlyAsTheQueueWritesThem) {
  EXPECT_EQ(parse_dead_letter_entry_id("1"), 1u);
  EXPECT_EQ(parse_dead_letter_entry_id("18446744073709551615"), 18446744073709551615u);
  for (const char* other :
       {"01", "1.0", " 1", "1 ", "+1", "-1", "", "0x1", "1e0", "18446744073709551616", "00"}) {
    EXPECT_EQ(parse_dead_letter_entry_id(other), std::nullopt) << "'" << other << "'";
  }
}

// The C++ side of JS's lone-surrogate rule: a name must be well-formed UTF-8,
// so "x" + an encoded U+D800 + "abc" is refused, not kept as another name.
TEST(BadInputAnswers, ActorNameThatIsNotWellFormedUtf8IsAnInvalidActorNameError) {
  for (const std::string bad : {"x\xED\xA0\x80"
                                "abc",
                                "x\xC0\xAF", "x\xE2\x82", "x\xFF"}) {
    EXPECT_FALSE(ActorPath::is_valid_name(bad));
    try {
      ActorPath::validate_name(bad, "/user");
      ADD_FAILURE() << "no InvalidActorNameError";
    } catch (const InvalidActorNameError& e) {
      EXPECT_NE(std::string(e.what()).find("UTF-8"), std::string::npos) << e.what();
    }
  }
  EXPECT_TRUE(ActorPath::is_valid_name("mail-\xF0\x9F\x93\xAC"));  // U+1F4EC, paired in UTF-16
  EXPECT_TRUE(ActorPath::is_valid_name("caf\xC3\xA9"));
}

}  // namespace
}  // namespace mailroom

// deadLetters.list's text query searches each letter's text as the session
// keeps it (core/src/devtools/search_text_cache.hpp): a payload is encoded for
// the search once, not on every question, and the texts kept stay within
// twice the queue.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mailroom/actor_system.hpp"
#include "mailroom/dead_letter_entry.hpp"
#include "mailroom/devtools_session.hpp"
#include "mailroom/payload_codec_registry.hpp"

// A private core header, tested directly for its bound (the session does not show its size).
#include "../../core/src/devtools/search_text_cache.hpp"

namespace mailroom {
namespace {

using nlohmann::json;

struct Order {
  std::string customer;
};

// A system whose letters are Orders to nobody, with a codec that counts its encodes.
struct SearchHarness {
  SearchHarness() {
    auto options = ActorSystemOptions::create();
    options.with_log_sink([](const LogEvent&) {})
        .with_dead_letters(
            DeadLetterQueueOptions::create().with_store("memory").with_max_entries(1'000));
    system = ActorSystem::create("shop", std::move(options));
    system->payload_codecs().add<Order>(
        "order",
        [this](const Order& o) {
          ++encodes;
          return json{{"customer", o.customer}};
        },
        [](const json& j) { return Order{j.at("customer").get<std::string>()}; });
    session = std::make_unique<DevtoolsSession>(
        *system, DevtoolsSessionOptions{},
        [this](std::string f) { frames.push_back(json::parse(f)); });
    session->receive(
        json{{"type", "hello"}, {"protocol", "mailroom-devtools"}, {"version", 1}}.dump());
  }
  ~SearchHarness() {
    session.reset();
    system->terminate();
    system->await_termination();
  }
  // The customers of the letters a text question finds, newest first.
  std::vector<std::string> ask(const std::string& text) {
    frames.clear();
    session->receive(json{{"type", "request"},
                          {"id", "q"},
                          {"method", "deadLetters.list"},
                          {"params", {{"text", text}, {"limit", 100}}}}
                         .dump());
    EXPECT_EQ(frames.size(), 1u);
    std::vector<std::string> found;
    for (const json& e : frames.at(0).at("result").at("entries")) {
      found.push_back(e.at("payload").at("value").at("customer"));
    }
    return found;
  }

  std::shared_ptr<ActorSystem> system;
  std::unique_ptr<DevtoolsSession> session;
  std::vector<json> frames;
  int encodes = 0;
};

TEST(DevtoolsSearchText, EachLetterIsEncodedForTheSearchOnceNotOnEveryQuestion) {
  SearchHarness h;
  for (int i = 0; i < 40; ++i) {
    h.system->actor_selection("/user/nobody").tell(Order{"customer-" + std::to_string(i)});
  }
  ASSERT_EQ(h.system->dead_letter_queue().list().size(), 40u);
  h.encodes = 0;
  EXPECT_TRUE(h.ask("no-such-text").empty());
  EXPECT_EQ(h.encodes, 40);
  // Asked again (as the panel does when letters arrive): nothing is encoded for the search.
  EXPECT_TRUE(h.ask("NO-SUCH-TEXT").empty());
  EXPECT_EQ(h.encodes, 40);
  // A match is found in the kept text; only the letter sent is encoded (its entry).
  EXPECT_EQ(h.ask("Customer-17"), (std::vector<std::string>{"customer-17"}));
  EXPECT_EQ(h.encodes, 41);
  // The recipient path is searched too, as before.
  EXPECT_EQ(h.ask("/user/nobody").size(), 40u);
  // A letter captured since is encoded once, when first searched.
  h.system->actor_selection("/user/nobody").tell(Order{"customer-40"});
  h.encodes = 0;
  EXPECT_EQ(h.ask("customer-40"), (std::vector<std::string>{"customer-40"}));
  EXPECT_EQ(h.encodes, 2);  // searched, then sent
}

DeadLetterEntry degraded(std::uint64_t position) {
  DeadLetterEntry e;
  e.id = position;
  e.position = position;
  e.recipient_path = "/user/a";
  e.payload = DeadLetterEntry::Degraded{"Order", "no codec " + std::to_string(position)};
  return e;
}

TEST(DevtoolsSearchText, TextsStayWithinTwiceTheQueueAndBelongToOneQueue) {
  PayloadCodecRegistry codecs;
  devtools::SearchTextCache texts;
  const std::size_t many = 3 * devtools::SearchTextCache::kSlack;
  for (std::uint64_t p = 1; p <= many; ++p) texts.text(7, degraded(p), codecs);
  EXPECT_EQ(texts.size(), many);
  EXPECT_NE(texts.text(7, degraded(5), codecs).find("no codec 5"), std::string::npos);
  // The queue still holds as many: all are kept.
  texts.bound(many);
  EXPECT_EQ(texts.size(), many);
  // Most left the queue (evicted, purged, replayed): once they could outnumber it, all go.
  texts.bound((many - devtools::SearchTextCache::kSlack) / 2);
  EXPECT_EQ(texts.size(), many);
  texts.bound(100);
  EXPECT_EQ(texts.size(), 0u);
  // Positions are a queue's own: another queue's position 5 is not this one's.
  texts.text(7, degraded(5), codecs);
  DeadLetterEntry other = degraded(5);
  other.recipient_path = "/user/b";
  EXPECT_EQ(texts.text(8, other, codecs).rfind("/user/b ", 0), 0u);
  EXPECT_EQ(texts.size(), 1u);
}

}  // namespace
}  // namespace mailroom

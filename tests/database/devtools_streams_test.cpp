// The DevTools protocol's cross-stream requests over a real shared store (one
// SQLite file, two systems as two processes would have them):
// deadLetters.streams, deadLetters.list with another process's "stream"
// (read-only, the live list's filters, cursor and page), and writes naming
// another stream refused with not-owner.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mailroom/devtools_session.hpp"
#include "mailroom/manual_dispatcher.hpp"
#include "mailroom/sqlite_journal.hpp"
#include "support/temp_dir.hpp"
#include "support/url_system.hpp"

namespace mailroom {
namespace {

using nlohmann::json;
using testing::TempDir;
using testing::UrlSystem;

const std::string kShop = "mailroom-dead-letters-shop";
const std::string kBilling = "mailroom-dead-letters-billing";

// Two systems on one file; a protocol session attached to the shop.
struct Shared {
  explicit Shared(bool writes = false)
      : shop("shop", "sqlite:" + dir.file("letters.db")),
        billing("billing", "sqlite:" + dir.file("letters.db")) {
    DevtoolsSessionOptions o;
    o.allow_writes = writes;
    session = std::make_unique<DevtoolsSession>(
        *shop.system, o, [this](std::string f) { frames.push_back(json::parse(f)); });
    welcome = send(json{{"type", "hello"}, {"protocol", "mailroom-devtools"}, {"version", 1}});
  }
  ~Shared() { session.reset(); }
  json send(const json& frame) {
    frames.clear();
    session->receive(frame.dump());
    EXPECT_EQ(frames.size(), 1u);
    return frames.empty() ? json() : frames.back();
  }
  json request(const std::string& method, const json& params = json::object()) {
    return send(json{{"type", "request"}, {"id", "1"}, {"method", method}, {"params", params}});
  }
  static std::vector<std::string> recipients(const json& response) {
    std::vector<std::string> out;
    for (const json& e : response["result"]["entries"]) out.push_back(e["recipientPath"]);
    return out;
  }

  TempDir dir;
  UrlSystem shop;
  UrlSystem billing;
  std::unique_ptr<DevtoolsSession> session;
  std::vector<json> frames;
  json welcome;
};

// The welcome names the process's own stream and offers deadLetters.streams.
TEST(DevtoolsStreams, WelcomeNamesTheOwnStream) {
  Shared s;
  EXPECT_EQ(s.welcome["deadLetterStream"], kShop);
  const auto& methods = s.welcome["methods"];
  EXPECT_NE(std::find(methods.begin(), methods.end(), "deadLetters.streams"), methods.end());
}

// deadLetters.streams: every dead-letter stream of the store, with its live count and owner flag.
TEST(DevtoolsStreams, StreamsListsEveryStreamWithCounts) {
  Shared s;
  s.shop.lose("/user/cart", "cart-1");
  s.billing.lose("/user/invoices/march", "invoice-1");
  s.billing.lose("/user/refunds", "refund-1");
  s.billing.queue().flush();
  const json r = s.request("deadLetters.streams");
  ASSERT_EQ(r["type"], "response") << r.dump();
  EXPECT_EQ(r["result"]["own"], kShop);
  EXPECT_EQ(
      r["result"]["streams"],
      json::parse(
          R"([{"stream":"mailroom-dead-letters-billing","system":"billing","size":2,"own":false},
                            {"stream":"mailroom-dead-letters-shop","system":"shop","size":1,"own":true}])"));
}

// deadLetters.list with another stream: that process's letters, newest first, tagged payloads,
// each marked with its stream; quarantine is the owner's call (null here).
TEST(DevtoolsStreams, ListOfAnotherStreamAnswersItsLettersReadOnly) {
  Shared s;
  s.shop.lose("/user/cart", "cart-1");
  s.billing.lose("/user/invoices/march", "invoice-1");
  s.billing.lose("/user/refunds", "refund-1");
  s.billing.queue().flush();
  const json r = s.request("deadLetters.list", {{"stream", kBilling}});
  ASSERT_EQ(r["type"], "response") << r.dump();
  EXPECT_EQ(r["result"]["stream"], kBilling);
  EXPECT_EQ(r["result"]["own"], false);
  EXPECT_EQ(Shared::recipients(r),
            (std::vector<std::string>{"/user/refunds", "/user/invoices/march"}));
  const json& first = r["result"]["entries"][0];
  EXPECT_EQ(first["stream"], kBilling);
  EXPECT_EQ(first["quarantined"], nullptr);
  EXPECT_EQ(first["cause"], "no-recipient");
  EXPECT_EQ(first["payload"]["kind"], "captured");
  EXPECT_EQ(first["payload"]["value"], "refund-1");
  EXPECT_EQ(r["result"]["nextCursor"], nullptr);
  // The shop's own list is untouched by billing's letters.
  EXPECT_EQ(Shared::recipients(s.request("deadLetters.list")),
            std::vector<std::string>{"/user/cart"});
  // Naming the own stream is the live list (with its revision).
  const json own = s.request("deadLetters.list", {{"stream", kShop}});
  EXPECT_TRUE(own["result"].contains("revision"));
  EXPECT_EQ(Shared::recipients(own), std::vector<std::string>{"/user/cart"});
}

// The live list's recipient subtree, text filter, page size and cursor work on another stream.
TEST(DevtoolsStreams, ListOfAnotherStreamFiltersAndPages) {
  Shared s;
  for (int i = 0; i < 5; ++i) s.billing.lose("/user/invoices/" + std::to_string(i), "invoice");
  s.billing.lose("/user/invoicesX", "not-a-child");
  s.billing.lose("/user/refunds", "refund");
  s.billing.queue().flush();
  const json sub =
      s.request("deadLetters.list", {{"stream", kBilling}, {"recipient", "/user/invoices"}});
  EXPECT_EQ(sub["result"]["entries"].size(), 5u) << sub.dump();  // not /user/invoicesX
  const json text = s.request("deadLetters.list", {{"stream", kBilling}, {"text", "REFUND"}});
  EXPECT_EQ(Shared::recipients(text), std::vector<std::string>{"/user/refunds"});
  std::vector<std::string> paged;
  json cursor = nullptr;
  int pages = 0;
  do {
    json params{{"stream", kBilling}, {"recipient", "/user/invoices"}, {"limit", 2}};
    if (!cursor.is_null()) params["cursor"] = cursor;
    const json page = s.request("deadLetters.list", params);
    ASSERT_EQ(page["type"], "response") << page.dump();
    for (const auto& p : Shared::recipients(page)) paged.push_back(p);
    cursor = page["result"]["nextCursor"];
    ++pages;
  } while (!cursor.is_null() && pages < 10);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(paged,
            (std::vector<std::string>{"/user/invoices/4", "/user/invoices/3", "/user/invoices/2",
                                      "/user/invoices/1", "/user/invoices/0"}));
}

// A stream the store does not hold, or a stream that is not a string, is a named bad-params.
TEST(DevtoolsStreams, UnknownStreamIsBadParams) {
  Shared s;
  const json r = s.request("deadLetters.list", {{"stream", "mailroom-dead-letters-nobody"}});
  EXPECT_EQ(r["type"], "error");
  EXPECT_EQ(r["code"], "bad-params");
  EXPECT_NE(r["message"].get<std::string>().find("mailroom-dead-letters-nobody"),
            std::string::npos);
  EXPECT_EQ(s.request("deadLetters.list", {{"stream", 7}})["code"], "bad-params");
}

// Writes that name another process's stream are refused (not-owner) and leave both streams as they
// were, even on a server that allows writes; naming the own stream replays as usual.
TEST(DevtoolsStreams, WritesToAnotherStreamAreRefused) {
  Shared s(/*writes=*/true);
  s.shop.lose("/user/cart", "cart-1");
  s.billing.lose("/user/refunds", "refund-1");
  s.billing.queue().flush();
  for (const char* method : {"deadLetters.replay", "deadLetters.release"}) {
    const json r = s.request(method, {{"id", "1"}, {"stream", kBilling}});
    EXPECT_EQ(r["code"], "not-owner") << method << " " << r.dump();
  }
  EXPECT_EQ(s.request("deadLetters.remove", {{"ids", {"1"}}, {"stream", kBilling}})["code"],
            "not-owner");
  EXPECT_EQ(s.billing.queue().list().size(), 1u);
  EXPECT_EQ(s.shop.queue().list().size(), 1u);
  const json own = s.request("deadLetters.replay", {{"id", "1"}, {"stream", kShop}});
  EXPECT_EQ(own["result"]["outcome"], "unresolved-recipient")
      << own.dump();  // /user/cart is not there
}

// The real SQLite journal, with every stream read counted.
class ReadCountingJournal final : public Journal {
 public:
  explicit ReadCountingJournal(std::shared_ptr<Journal> inner) : inner_(std::move(inner)) {}
  JournalReadResult read(const std::string& stream) override {
    ++reads;
    return inner_->read(stream);
  }
  JournalReadResult read_letters(const std::string& stream,
                                 const JournalLetterFilter& filter) override {
    ++reads;
    return inner_->read_letters(stream, filter);
  }
  std::uint64_t append(const std::string& stream, std::string payload) override {
    return inner_->append(stream, std::move(payload));
  }
  void flush() override { inner_->flush(); }
  void delete_up_to(const std::string& stream, std::uint64_t up_to) override {
    inner_->delete_up_to(stream, up_to);
  }
  void acquire(const std::string& stream) override { inner_->acquire(stream); }
  void release(const std::string& stream) override { inner_->release(stream); }
  std::vector<std::string> streams() override { return inner_->streams(); }
  std::optional<std::map<std::string, std::uint64_t>> count_letters() override {
    return inner_->count_letters();
  }
  std::atomic<int> reads{0};

 private:
  std::shared_ptr<Journal> inner_;
};

// deadLetters.streams counts in the store (one query) and reads no stream, however long; the
// counts are the folded ones: a purged letter (its "removed" tombstone) is not counted, and the
// shop's own letters are counted before its batch reached the file.
TEST(DevtoolsStreams, StreamsCountsInTheStoreWithoutReadingAnyStream) {
  TempDir dir;
  const std::string file = dir.file("letters.db");
  UrlSystem billing("billing", "sqlite:" + file);
  for (int i = 0; i < 3; ++i) billing.lose("/user/invoices/" + std::to_string(i), "invoice");
  const std::uint64_t purged = billing.queue().list().front().id;
  ASSERT_EQ(billing.queue().remove({purged}).size(), 1u);
  billing.queue().flush();

  auto journal = std::make_shared<ReadCountingJournal>(open_sqlite_journal(file));
  auto dispatcher = std::make_shared<ManualDispatcher>();
  auto shop = ActorSystem::create(
      "shop", ActorSystemOptions::create()
                  .with_dispatcher(dispatcher)
                  .with_journal(journal)
                  .with_dead_letters(DeadLetterQueueOptions::create().with_store("persistent")));
  shop->actor_selection("/user/cart").tell(std::string("cart-1"));
  dispatcher->run_until_idle();
  std::vector<json> frames;
  DevtoolsSession session(*shop, {}, [&](std::string f) { frames.push_back(json::parse(f)); });
  session.receive(R"({"type":"hello","protocol":"mailroom-devtools","version":1})");
  const int reads_before = journal->reads.load();  // the shop's restore read its own stream
  session.receive(R"({"type":"request","id":1,"method":"deadLetters.streams"})");
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(
      frames[1]["result"]["streams"],
      json::parse(
          R"([{"stream":"mailroom-dead-letters-billing","system":"billing","size":2,"own":false},
                            {"stream":"mailroom-dead-letters-shop","system":"shop","size":1,"own":true}])"))
      << frames[1].dump();
  EXPECT_EQ(journal->reads.load(), reads_before) << "deadLetters.streams read streams in full";
  shop->terminate();
  dispatcher->run_until_idle();
}

// A store that is not persistent has no streams and no own stream.
TEST(DevtoolsStreams, MemoryStoreHasNoStreams) {
  auto system = ActorSystem::create(
      "mem", ActorSystemOptions::create().with_dispatcher(std::make_shared<ManualDispatcher>()));
  std::vector<json> frames;
  DevtoolsSession session(*system, {}, [&](std::string f) { frames.push_back(json::parse(f)); });
  session.receive(R"({"type":"hello","protocol":"mailroom-devtools","version":1})");
  session.receive(R"({"type":"request","id":1,"method":"deadLetters.streams"})");
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0]["deadLetterStream"], nullptr);
  EXPECT_EQ(frames[1]["result"], json::parse(R"({"own":null,"streams":[]})"));
  system->terminate();
}

}  // namespace
}  // namespace mailroom

// list() filters read as a user reads them (issue 13): limit Infinity is no
// limit, sinceMs Infinity matches nothing newer, NaN and bad limits are a
// named OptionsError, and a path of another system matches nothing. The JS
// API hands its numbers to the same DeadLetterFilter::from_numbers.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "mailroom/dead_letter_filter.hpp"
#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/errors.hpp"
#include "support/dead_letter_fakes.hpp"
#include "support/dead_letter_lists.hpp"

namespace mailroom {
namespace {

using testing::FakeReplayTarget;
using testing::ids;

constexpr double kInf = std::numeric_limits<double>::infinity();
const std::nullopt_t none = std::nullopt;

// Five letters at 1000, 1001, ... 1004 ms, to /user/a.
struct Five {
  Five() {
    DeadLetterQueueSettings s;
    s.store = DeadLetterStore::kMemory;
    DeadLetterQueue::Dependencies d;
    d.target = &target;
    d.now_ms = [this] { return clock; };
    queue = std::make_unique<DeadLetterQueue>(s, d);
    for (int i = 0; i < 5; ++i) {
      queue->capture(testing::make_letter(Message(std::string("m")), "/user/a"));
      ++clock;
    }
  }
  std::vector<std::uint64_t> list(std::optional<double> since, std::optional<double> until,
                                  std::optional<double> limit,
                                  std::optional<std::string> recipient = std::nullopt) {
    return ids(queue->list(DeadLetterFilter::from_numbers(recipient, since, until, limit)));
  }
  std::int64_t clock = 1000;
  FakeReplayTarget target;
  std::unique_ptr<DeadLetterQueue> queue;
};

using Ids = std::vector<std::uint64_t>;

// limit: Infinity and anything beyond what size_t holds is no limit; 0 is none.
TEST(DeadLetterFilter, InfiniteOrHugeLimitIsNoLimit) {
  Five f;
  EXPECT_EQ(f.list(none, none, kInf), (Ids{5, 4, 3, 2, 1}));
  EXPECT_EQ(f.list(none, none, 1e300), (Ids{5, 4, 3, 2, 1}));
  EXPECT_EQ(f.list(none, none, 2), (Ids{5, 4}));
  EXPECT_EQ(f.list(none, none, 0), Ids{});
}

// sinceMs Infinity: nothing is newer; -Infinity: no bound. untilMs mirrored.
TEST(DeadLetterFilter, InfiniteTimesBoundAsWritten) {
  Five f;
  EXPECT_EQ(f.list(kInf, none, none), Ids{});
  EXPECT_EQ(f.list(-kInf, none, none), (Ids{5, 4, 3, 2, 1}));
  EXPECT_EQ(f.list(none, kInf, none), (Ids{5, 4, 3, 2, 1}));
  EXPECT_EQ(f.list(none, -kInf, none), Ids{});
  EXPECT_EQ(f.list(1e300, none, none), Ids{});
  EXPECT_EQ(f.list(-1e300, none, none), (Ids{5, 4, 3, 2, 1}));
}

// Fractional times round inwards: since 1001.5 starts at 1002, until 1002.5 ends at 1002.
TEST(DeadLetterFilter, FractionalTimesRoundInwards) {
  Five f;
  EXPECT_EQ(f.list(1001.5, none, none), (Ids{5, 4, 3}));
  EXPECT_EQ(f.list(none, 1002.5, none), (Ids{3, 2, 1}));
}

// NaN anywhere, a negative or a fractional limit: OptionsError naming the field.
TEST(DeadLetterFilter, InvalidNumbersAreAnOptionsError) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto field_of = [](std::optional<double> since, std::optional<double> until,
                           std::optional<double> limit) {
    try {
      DeadLetterFilter::from_numbers(std::nullopt, since, until, limit);
    } catch (const OptionsError& e) {
      EXPECT_EQ(e.family(), "DeadLetterFilter");
      return e.field();
    }
    return std::string("no error");
  };
  EXPECT_EQ(field_of(nan, none, none), "sinceMs");
  EXPECT_EQ(field_of(none, nan, none), "untilMs");
  EXPECT_EQ(field_of(none, none, nan), "limit");
  EXPECT_EQ(field_of(none, none, -1), "limit");
  EXPECT_EQ(field_of(none, none, -kInf), "limit");
  EXPECT_EQ(field_of(none, none, 2.5), "limit");
}

// A full path of another system matches none of this system's letters.
TEST(DeadLetterFilter, PathOfAnotherSystemMatchesNothing) {
  Five f;
  EXPECT_EQ(f.list(none, none, none, std::string("mailroom://shop/user/a")).size(), 5u);
  EXPECT_EQ(f.list(none, none, none, std::string("mailroom://billing/user/a")), Ids{});
  EXPECT_EQ(f.list(none, none, none, std::string("mailroom://billing")), Ids{});
  EXPECT_EQ(f.list(none, none, none, std::string("/user/a")).size(), 5u);
}

}  // namespace
}  // namespace mailroom

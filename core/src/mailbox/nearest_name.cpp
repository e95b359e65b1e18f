#include "mailroom/detail/nearest_name.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>

namespace mailroom::detail {

namespace {
char lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

// Optimal string alignment distance: a swapped pair of letters ("capactiy")
// is one edit, as a person counts it.
std::size_t distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1])) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}
}  // namespace

std::optional<std::string_view> nearest_name(std::string_view given,
                                             const std::vector<std::string_view>& known) {
  // Bounded input: a key is a short name; a long one is no one's typo.
  if (given.empty() || given.size() > 64) return std::nullopt;
  std::optional<std::string_view> best;
  std::size_t best_distance = 0;
  for (std::string_view name : known) {
    const std::size_t dist = distance(given, name);
    if (!best || dist < best_distance) {
      best = name;
      best_distance = dist;
    }
  }
  // Near enough: at most a third of the name wrong (and at least one edit allowed).
  if (best && best_distance <= std::max<std::size_t>(1, best->size() / 3)) return best;
  return std::nullopt;
}

}  // namespace mailroom::detail

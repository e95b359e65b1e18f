// The one rule for a whole-number option (capacities, maxEntries, maxReplays,
// throughput, restart budgets), shared by every front door (C++ builders,
// HOCON, the JS API). Values arrive as doubles so the core, not a conversion
// on the way, decides integrality and range.
#pragma once

#include <string>
#include <string_view>

namespace mailroom {

// The largest count any option takes, the same on every target: what a
// 32-bit size_t (wasm32) holds. A larger value is refused, never truncated,
// so one input gives one outcome natively and in the browser.
inline constexpr double kMaxOptionCount = 4294967295.0;

// `value` if it is a whole number in [min, max]; otherwise throws
// OptionsError{family, field, option_number_text(value), "<field> must be <expectation>"}.
// NaN and infinities are refused with the same error.
double validate_whole_number(double value, std::string_view family, std::string_view field,
                             double min, double max, std::string_view expectation);

// A number as JS prints it ("NaN", "Infinity", "1.5", "3"): the value text
// of an OptionsError, so JS and C++ spell it alike.
std::string option_number_text(double value);

}  // namespace mailroom

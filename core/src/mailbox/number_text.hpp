// Private to the mailbox area: how a double is written in error values and in
// the Prometheus exposition. (libc++ 13 has no floating-point to_chars.)
#pragma once

#include <string>

namespace mailroom::detail {

// Shortest decimal that reads back as the same double; integers without a
// fraction ("3", "2.5", "1e+300"). Not for NaN or infinities.
std::string shortest_decimal(double value);

// As JS's String(number): "NaN", "Infinity", "-Infinity", plain decimals in
// [1e-6, 1e21) ("1000000000000000", "0.1"), else "1e+21" / "1e-7".
std::string js_number_text(double value);

// As the Prometheus text format wants them: "NaN", "+Inf", "-Inf", else shortest.
std::string prometheus_number_text(double value);

}  // namespace mailroom::detail

// The message of an exception caught with catch (...), for damage reports.
#pragma once

#include <exception>
#include <string>

namespace mailroom::detail {

inline std::string error_text(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown error";
  }
}

}  // namespace mailroom::detail

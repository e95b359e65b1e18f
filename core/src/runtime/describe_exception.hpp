// A readable one-line description of any exception_ptr, for logs.
#pragma once

#include <exception>
#include <string>

namespace mailroom::detail {

std::string describe_exception(std::exception_ptr error);

}  // namespace mailroom::detail

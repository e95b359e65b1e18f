#include "describe_exception.hpp"

#include <typeinfo>

#include "mailroom/message.hpp"

namespace mailroom::detail {

std::string describe_exception(std::exception_ptr error) {
  if (!error) return "<no error>";
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return demangle(typeid(e).name()) + ": " + e.what();
  } catch (...) {
    return "unknown exception";
  }
}

}  // namespace mailroom::detail

#include "js_hooks.hpp"

#include <string>

#include "js_value.hpp"
#include "mailroom/errors.hpp"

namespace mailroom::wasm {

using emscripten::val;

namespace {
val& hooks_slot() {
  static val slot = val::undefined();
  return slot;
}

std::string describe_js(const val& error) {
  if (error.isUndefined() || error.isNull()) return "undefined error";
  if (error.typeOf().as<std::string>() == "object" && error.hasOwnProperty("message")) {
    return js_class_name(error) + ": " + error["message"].as<std::string>();
  }
  val text = val::global("String")(error);
  return text.as<std::string>();
}
}  // namespace

void install_hooks(val hooks) {
  hooks_slot() = std::move(hooks);
}
const val& hooks() {
  return hooks_slot();
}

bool threw(const val& result) {
  return result.typeOf().as<std::string>() == "object" && !result.isNull() &&
         result.hasOwnProperty("thrown");
}

JsError::JsError(val error) : std::runtime_error(describe_js(error)), value_(std::move(error)) {}

void rethrow_js(const val& error) {
  if (error.typeOf().as<std::string>() == "object" && !error.isNull()) {
    const std::string name = error["name"].isString() ? error["name"].as<std::string>() : "";
    if (name == "MailboxFullError") {
      const std::string path = error["path"].isString() ? error["path"].as<std::string>() : "";
      const double capacity = error["capacity"].isNumber() ? error["capacity"].as<double>() : 0;
      throw MailboxFullError(path, static_cast<std::size_t>(capacity));
    }
  }
  throw JsError(error);
}

std::string js_class_name(const val& value) {
  return hooks()["classNameOf"](value).as<std::string>();
}

}  // namespace mailroom::wasm

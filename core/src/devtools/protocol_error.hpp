// A client frame the protocol refuses, with its named error code
// ("bad-params", "unknown-stream", ...). Caught by the session and sent back
// as an error frame; it never leaves the devtools module.
#pragma once

#include <stdexcept>
#include <string>

namespace mailroom::devtools {

class ProtocolError : public std::runtime_error {
 public:
  ProtocolError(std::string code, const std::string& message)
      : std::runtime_error(message), code_(std::move(code)) {}
  const std::string& code() const noexcept { return code_; }

 private:
  std::string code_;
};

}  // namespace mailroom::devtools

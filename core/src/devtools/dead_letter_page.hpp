// deadLetters.list: one page of the queue, newest first, narrowed by
// recipient subtree, time window and payload text, continued by a cursor.
#pragma once

#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

namespace mailroom {
class ActorSystem;
}

namespace mailroom::devtools {

// {entries, nextCursor (null on the last page), revision}. Bad params throw
// ProtocolError("bad-params", ...) naming the field.
nlohmann::json list_page(ActorSystem& system, const nlohmann::json& params,
                         std::size_t default_limit, std::size_t max_limit);

// A limit in [1, max] (ProtocolError otherwise).
std::size_t page_limit(const nlohmann::json& value, std::size_t max);
// params.id as a decimal string or a non-negative integer.
std::uint64_t entry_id(const nlohmann::json& params);

}  // namespace mailroom::devtools

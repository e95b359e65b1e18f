#include "json_lines_journal.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mailroom/tagged_json.hpp"

namespace mailroom::dlq {

std::string JsonLinesJournal::path_for(const std::string& stream) const {
  // encodeURIComponent: unreserved A-Z a-z 0-9 - _ . ! ~ * ' ( ), UTF-8 bytes as %XX.
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string name;
  for (unsigned char c : stream) {
    const bool keep =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
        std::string_view("-_.!~*'()").find(static_cast<char>(c)) != std::string_view::npos;
    if (keep) {
      name.push_back(static_cast<char>(c));
    } else {
      name += {'%', kHex[c >> 4], kHex[c & 0xF]};
    }
  }
  return (std::filesystem::path(directory_) / (name + ".jsonl")).string();
}

JournalReadResult JsonLinesJournal::read(const std::string& stream) {
  JournalReadResult out;
  const std::string path = path_for(stream);
  std::ifstream in(path, std::ios::binary);
  if (!in) return out;  // no file: an empty stream, as NodeJournal reads it
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t offset = 0;
  while (offset < text.size()) {
    const std::size_t end = text.find('\n', offset);
    std::string why;
    if (end == std::string::npos) {
      why = "torn tail (no line end)";
    } else {
      try {
        const auto line =
            tagged_json::parse_bounded(std::string_view(text).substr(offset, end - offset));
        if (!line.is_object() || !line.contains("s") || !line["s"].is_number_integer() ||
            !line.contains("p") || !line["p"].is_string()) {
          why = "unreadable record at byte " + std::to_string(offset);
        } else if (const auto sequence = line["s"].get<std::int64_t>(); sequence > 0) {
          out.records.push_back(
              {static_cast<std::uint64_t>(sequence), line["p"].get<std::string>()});
        }
      } catch (const std::exception&) {  // malformed, or nested past the limit
        why = "unreadable record at byte " + std::to_string(offset);
      }
    }
    if (!why.empty()) {
      out.damaged = true;
      out.damaged_at_offset = offset;
      out.damage = why;
      break;
    }
    offset = end + 1;
  }
  return out;
}

std::uint64_t JsonLinesJournal::append(const std::string&, std::string) {
  throw std::logic_error("mailroom-dlq never writes a journal");
}
void JsonLinesJournal::flush() {}
void JsonLinesJournal::delete_up_to(const std::string&, std::uint64_t) {
  throw std::logic_error("mailroom-dlq never writes a journal");
}

}  // namespace mailroom::dlq

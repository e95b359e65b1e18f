// The on-disk framing of a FileJournal stream (internal to the persistence
// area). A file is a header, then records:
//   header: "MRJL" | version u32 LE | base sequence u64 LE | CRC32 of the 16 bytes before
//   record: payload length u32 LE | sequence u64 LE | CRC32 of (sequence bytes + payload) | payload
// The base sequence is the sequence before the first record, so prefix
// compaction can drop every record without sequence numbers starting over.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "mailroom/journal.hpp"

namespace mailroom::detail {

inline constexpr std::uint32_t kJournalVersion = 1;
inline constexpr std::size_t kFileHeaderSize = 20;
inline constexpr std::size_t kRecordHeaderSize = 16;
// Larger lengths are damage, not a reason to allocate gigabytes.
inline constexpr std::uint32_t kMaxRecordPayload = 64u * 1024u * 1024u;

std::string encode_file_header(std::uint64_t base_sequence);
std::string encode_record(std::uint64_t sequence, std::string_view payload);

struct JournalScan {
  JournalReadResult read;           // valid records + damage report
  bool has_header = false;          // a valid file header was found
  std::uint64_t base_sequence = 0;  // from the header (0 without one)
  std::uint64_t last_sequence = 0;  // of the last valid record, else base_sequence
  std::uint64_t valid_size = 0;     // bytes of the valid prefix (header + whole records)
};

// Never throws on any input; an empty input is an empty, undamaged stream.
JournalScan scan_journal(std::string_view bytes);

}  // namespace mailroom::detail

#include "tools/file_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace xla_index {
namespace {

using ::testing::HasSubstr;

// Runs `body` with standard input replaced by `fd` (or closed when fd < 0),
// then restores it.
template <typename Body>
void WithStdin(int fd, Body body) {
  int saved = dup(STDIN_FILENO);
  ASSERT_GE(saved, 0);
  if (fd >= 0) {
    dup2(fd, STDIN_FILENO);
  } else {
    close(STDIN_FILENO);
  }
  body();
  dup2(saved, STDIN_FILENO);
  close(saved);
}

TEST(FileIoTest, ReadsAFile) {
  std::string path = testing::TempDir() + "/file_io_test.txt";
  std::ofstream(path) << "hello\n";
  absl::StatusOr<std::string> text = ReadInputFile(path);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text, "hello\n");
}

TEST(FileIoTest, MissingFile) {
  absl::StatusOr<std::string> text = ReadInputFile("/no/such/file");
  ASSERT_FALSE(text.ok());
  EXPECT_THAT(text.status().message(), HasSubstr("cannot open file"));
}

TEST(FileIoTest, DirectoryIsAnErrorNotAnEmptyFile) {
  absl::StatusOr<std::string> text = ReadInputFile(testing::TempDir());
  ASSERT_FALSE(text.ok());
  EXPECT_THAT(text.status().message(), HasSubstr("is a directory"));
}

TEST(FileIoTest, EndlessFileStopsAtTheLimit) {
  absl::StatusOr<std::string> text = ReadInputFile("/dev/zero", 100000);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(text.status().message(),
              HasSubstr("/dev/zero: input is larger than the limit of 100000 "
                        "bytes (raise it with --max-input-bytes=N)"));
}

TEST(FileIoTest, ExactlyTheLimitIsAccepted) {
  std::string path = testing::TempDir() + "/file_io_limit.txt";
  std::ofstream(path) << std::string(1000, 'x');
  EXPECT_TRUE(ReadInputFile(path, 1000).ok());
  EXPECT_FALSE(ReadInputFile(path, 999).ok());
}

TEST(FileIoTest, EndlessStdinStopsAtTheLimit) {
  int zero = open("/dev/zero", O_RDONLY);
  ASSERT_GE(zero, 0);
  WithStdin(zero, [] {
    absl::StatusOr<std::string> text = ReadInputFile("-", 4096);
    ASSERT_FALSE(text.ok());
    EXPECT_THAT(text.status().message(),
                HasSubstr("standard input: input is larger than the limit"));
    absl::StatusOr<std::string> map = ArgumentOrStdin("-", 4096);
    EXPECT_FALSE(map.ok());
  });
  close(zero);
}

TEST(FileIoTest, ClosedStdinIsAnErrorNotAnEmptyFile) {
  WithStdin(-1, [] {
    absl::StatusOr<std::string> text = ReadInputFile("-");
    ASSERT_FALSE(text.ok());
    EXPECT_THAT(text.status().message(),
                HasSubstr("standard input: is closed"));
  });
}

TEST(FileIoTest, ArgumentIsItselfUnlessDash) {
  absl::StatusOr<std::string> text = ArgumentOrStdin("(d0) -> (d0)");
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "(d0) -> (d0)");
}

TEST(FileIoTest, MaxInputBytesFlag) {
  CommandLine none;
  EXPECT_EQ(*MaxInputBytes(none), kDefaultMaxInputBytes);
  CommandLine set;
  set.flags["max-input-bytes"] = "123";
  EXPECT_EQ(*MaxInputBytes(set), 123);
  for (const char* bad : {"0", "-5", "x", ""}) {
    CommandLine wrong;
    wrong.flags["max-input-bytes"] = bad;
    absl::StatusOr<int64_t> limit = MaxInputBytes(wrong);
    ASSERT_FALSE(limit.ok()) << bad;
    EXPECT_THAT(limit.status().message(), HasSubstr("--max-input-bytes"));
  }
}

}  // namespace
}  // namespace xla_index

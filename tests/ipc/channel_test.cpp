// Channel and ChildChannel against ipc_test_peer: a round trip with a descriptor, a peer that
// dies mid-request, a reply that is not JSON, a peer that never answers; a ChildChannel names
// each loss, kills the peer's whole group, and starts afresh with its setup replayed.
#include "engine/ipc/channel.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "engine/ipc/child_channel.h"
#include "engine/ipc/child_process.h"
#include "tests/ipc/ipc_test_support.h"

namespace kta::test {
namespace {

namespace ipc = engine::ipc;
using ipc::json;

// A peer started with its end of a fresh channel as fd 3.
struct Peer {
  ipc::Channel channel;
  ipc::ChildProcess process;
};

Peer start_peer() {
  std::string error;
  auto pair = ipc::Channel::open_pair("test peer", &error);
  EXPECT_TRUE(pair) << error;
  Peer p;
  ipc::SpawnSpec s;
  s.argv = {KTA_IPC_TEST_PEER};
  s.fds = {{pair->second.get(), 3}};
  s.output = ipc::Output::inherit();
  auto failed = p.process.spawn(s);
  EXPECT_FALSE(failed) << failed->text(s.argv[0]);
  p.channel = std::move(pair->first);
  return p;
}

ipc::Deadline patient() { return ipc::Deadline::after(60); }

class Channel : public IpcTest {};

TEST_F(Channel, RoundTripWithADescriptor) {
  Peer p = start_peer();
  int fds[2];
  ASSERT_EQ(pipe2(fds, O_CLOEXEC), 0);
  ipc::Reply r = p.channel.request({{"op", "fd"}, {"n", 42}}, patient(), fds[1]);
  ASSERT_TRUE(r) << r.error;
  EXPECT_EQ(r.failure, ipc::Reply::Failure::none);
  EXPECT_EQ((*r.message)["echo"]["n"], 42);
  EXPECT_EQ((*r.message)["wrote"], true);
  char c = 0;
  EXPECT_EQ(read(fds[0], &c, 1), 1);
  EXPECT_EQ(c, 'z');
  close(fds[0]);
  close(fds[1]);
  ipc::Reply again = p.channel.request({{"op", "echo"}}, patient());
  ASSERT_TRUE(again) << again.error;
  p.channel.close();  // the peer sees the end of its requests and exits
  EXPECT_EQ(WEXITSTATUS(p.process.wait()), 0);
}

TEST_F(Channel, PeerDeathMidRequestIsClosed) {
  Peer p = start_peer();
  ipc::Reply r = p.channel.request({{"op", "die"}}, patient());
  EXPECT_FALSE(r);
  EXPECT_EQ(r.failure, ipc::Reply::Failure::closed);
  EXPECT_EQ(r.error, "the test peer closed the connection");
  EXPECT_EQ(p.process.ended("peer"), "peer is running");  // not reaped by the channel
  EXPECT_EQ(WEXITSTATUS(p.process.wait()), 7);
  ipc::Reply after = p.channel.request({{"op", "echo"}}, patient());
  EXPECT_EQ(after.failure, ipc::Reply::Failure::closed);
}

TEST_F(Channel, AReplyThatIsNotJsonIsAProtocolError) {
  Peer p = start_peer();
  ipc::Reply r = p.channel.request({{"op", "garbage"}}, patient());
  EXPECT_FALSE(r);
  EXPECT_EQ(r.failure, ipc::Reply::Failure::not_json);
  EXPECT_EQ(r.error, "protocol error: the test peer sent a message that is not JSON");
}

TEST_F(Channel, NoReplyByTheDeadlineIsATimeout) {
  Peer p = start_peer();
  ipc::Reply r = p.channel.request({{"op", "hang"}}, ipc::Deadline::after(0.5));
  EXPECT_FALSE(r);
  EXPECT_EQ(r.failure, ipc::Reply::Failure::timeout);
  EXPECT_EQ(r.error.rfind("timeout after 0.5 s", 0), 0u) << r.error;  // longer on a busy machine
  EXPECT_TRUE(p.process.running());  // the channel only tells; the owner kills
}

TEST_F(Channel, FramingKeepsMessagesApartAndClipsLongTexts) {
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
  ASSERT_TRUE(ipc::send_message(sv[0], {{"a", 1}}));
  ASSERT_TRUE(ipc::send_message(sv[0], {{"text", std::string(ipc::kMaxMessageBytes, 'x')}}));
  auto first = ipc::receive_message(sv[1]);
  ASSERT_TRUE(first);
  EXPECT_EQ((*first)["a"], 1);
  auto second = ipc::receive_message(sv[1]);  // too large: replaced, not cut mid-message
  ASSERT_TRUE(second);
  EXPECT_EQ((*second)["error"], "reply too large");
  std::string clipped = ipc::clip(std::string(ipc::kMaxTextBytes + 10, 'y'));
  EXPECT_NE(clipped.find("[... 10 more bytes]"), std::string::npos);
  close(sv[0]);
  EXPECT_EQ(ipc::receive(sv[1]).kind, ipc::Received::Kind::closed);
  close(sv[1]);
}

class ChildChannel : public IpcTest {
 protected:
  ipc::SpawnSpec peer() {
    ipc::SpawnSpec s;
    s.argv = {KTA_IPC_TEST_PEER};
    return s;
  }
  // A setup that counts its runs and checks the fresh child answers.
  std::function<std::string()> counting_setup() {
    return [this] {
      ++setups;
      ipc::Reply r = child.request({{"op", "echo"}}, 60);
      return r ? std::string() : "no hello: " + r.error;
    };
  }
  ipc::ChildChannel child{"test peer", "kta-ipc-test-log"};
  int setups = 0;
};

TEST_F(ChildChannel, DeathIsNamedWithTheLastLineAndTheNextStartReplays) {
  ASSERT_EQ(child.start(peer(), counting_setup()), "");
  EXPECT_TRUE(child.running());
  EXPECT_EQ(child.generation(), 1u);
  ipc::Reply r = child.request({{"op", "die"}}, 60);
  EXPECT_FALSE(r);
  EXPECT_EQ(r.error, "test peer exited with status 7: the peer gives up");
  EXPECT_FALSE(child.running());
  EXPECT_EQ(child.pid(), -1);
  ASSERT_EQ(child.start(peer(), counting_setup()), "");
  EXPECT_EQ(setups, 2);
  EXPECT_EQ(child.generation(), 2u);
  EXPECT_TRUE(child.request({{"op", "echo"}}, 60));
  pid_t pid = child.pid();
  child.stop();
  EXPECT_TRUE(reaped(pid));
  EXPECT_TRUE(no_children_left());
}

TEST_F(ChildChannel, TimeoutKillsTheWholeGroup) {
  ASSERT_EQ(child.start(peer()), "");
  ipc::Reply spawned = child.request({{"op", "spawn"}}, 60);
  ASSERT_TRUE(spawned) << spawned.error;
  pid_t grandchild = (*spawned.message)["pid"].get<pid_t>();
  ASSERT_GT(grandchild, 0);
  pid_t pid = child.pid();
  ipc::Reply r = child.request({{"op", "hang"}}, 0.5);
  EXPECT_EQ(r.failure, ipc::Reply::Failure::timeout);
  EXPECT_EQ(r.error.rfind("timeout after 0.5 s", 0), 0u) << r.error;  // longer on a busy machine
  EXPECT_FALSE(child.running());
  EXPECT_TRUE(reaped(pid));
  EXPECT_TRUE(gone(grandchild)) << "grandchild " << grandchild << " survived the timeout";
  EXPECT_TRUE(no_children_left());
}

TEST_F(ChildChannel, NonJsonReplyLosesTheChild) {
  ASSERT_EQ(child.start(peer()), "");
  pid_t pid = child.pid();
  ipc::Reply r = child.request({{"op", "garbage"}}, 60);
  EXPECT_EQ(r.error, "protocol error: the test peer sent a message that is not JSON");
  EXPECT_FALSE(child.running());
  EXPECT_TRUE(reaped(pid));
  ipc::Reply after = child.request({{"op", "echo"}}, 60);
  EXPECT_EQ(after.error, "the test peer is not running");
}

TEST_F(ChildChannel, StartFailuresAreNamed) {
  ipc::SpawnSpec missing;
  missing.argv = {"/nonexistent/kta-peer"};
  EXPECT_EQ(child.start(missing),
            "cannot start the test peer '/nonexistent/kta-peer': No such file or directory");
  std::string why = child.start(peer(), [] { return std::string("the hello was wrong"); });
  EXPECT_EQ(why, "the hello was wrong");
  EXPECT_FALSE(child.running());  // a failed setup stops the child
  EXPECT_TRUE(no_children_left());
}

}  // namespace
}  // namespace kta::test

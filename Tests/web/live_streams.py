"""What the server says about a person's live streams, for the tests of the shared stream:
the count a test-mode server tells (`GET /test/streams`), and streams held open from outside
the browser the way other devices would hold them."""
import http.client
import json
import urllib.request

# ServiceConfiguration.streamsPerUser: the server's cap on one person's open streams.
STREAMS_PER_USER = 8


def session_token(driver):
    return driver.get_cookie("ls_session")["value"]


def open_streams(server, token):
    """How many live streams the server holds open for the person behind `token`. A stream
    whose client left is counted until the server's next keep-alive (15 s) finds it gone."""
    request = urllib.request.Request(server.base + "/test/streams", headers={"Authorization": "Bearer " + token})
    return json.loads(urllib.request.urlopen(request, timeout=5).read())["open"]


def live_role(driver):
    """The part the page plays in its browser's stream: leader, follower or tab (its own)."""
    return driver.execute_script("return document.documentElement.dataset.liveRole || ''")


class HeldStreams:
    """Streams opened on /events with a person's session, as other tabs or devices would, and
    kept open until `close()`."""

    def __init__(self, server, token):
        self.server, self.token, self.connections = server, token, []

    def open_until_refused(self):
        """Opens streams until the server answers 429; returns how many it accepted."""
        accepted = 0
        for _ in range(STREAMS_PER_USER * 3):
            connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
            connection.request("GET", "/events", headers={"Cookie": "ls_session=" + self.token, "Accept": "text/event-stream"})
            response = connection.getresponse()
            if response.status == 429:
                connection.close()
                return accepted
            assert response.status == 200, response.status
            self.connections.append(connection)
            accepted += 1
        raise AssertionError("the server never refused a stream")

    def close(self):
        for connection in self.connections:
            connection.close()
        self.connections = []

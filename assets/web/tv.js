// The TV page and the table page (event serve): the laptop makes the board in the page's
// language and pushes a new one by server-sent events whenever it changes; this script only
// swaps it in. It holds no words (they come from src/i18n/event.rs) and never polls.
(function () {
  "use strict";
  var body = document.body;
  var query = "lang=" + encodeURIComponent(body.dataset.lang || "en");
  if (body.dataset.table) {
    query += "&table=" + encodeURIComponent(body.dataset.table);
  }
  var board = document.getElementById("board");
  var offline = document.getElementById("offline");
  var feed = new EventSource("/tv/events?" + query);
  feed.addEventListener("state", function (e) {
    try {
      var message = JSON.parse(e.data);
      board.innerHTML = message.html;
      offline.hidden = true;
    } catch (err) {
      // A message that is not JSON is ignored; the next one replaces the board.
    }
  });
  feed.addEventListener("error", function () {
    // EventSource reconnects by itself; the page says so meanwhile.
    offline.hidden = false;
  });
})();

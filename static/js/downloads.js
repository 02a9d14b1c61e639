// A report asked for from a page (templates/scoring/_downloads.html) shows its progress,
// polled by htmx; when it is ready, the fragment holds a link marked data-autodownload,
// which is followed once, so the file arrives without another click. Without JavaScript the
// buttons lead to the report's own page instead.
document.addEventListener("htmx:load", (event) => {
  const root = event.target;
  const links = root.matches?.("a[data-autodownload]")
    ? [root]
    : Array.from(root.querySelectorAll?.("a[data-autodownload]") ?? []);
  for (const link of links) {
    if (link.dataset.followed) continue;
    link.dataset.followed = "1";
    link.click();
  }
});

// Shows "作成中…" on a download button until the file has arrived. The server echoes the
// button's token in a cookie (dl_<token>) with the file. Without JavaScript the links
// download as usual, only without the indicator.
document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-download]");
  if (!link) return;
  const token = Math.random().toString(36).slice(2, 12);
  const url = new URL(link.href, location.href);
  url.searchParams.set("dl", token);
  link.href = url.toString();
  link.classList.add("is-busy");
  link.setAttribute("aria-busy", "true");
  const started = Date.now();
  const timer = setInterval(() => {
    const done = document.cookie.split("; ").some((c) => c.startsWith(`dl_${token}=`));
    if (done || Date.now() - started > 120000) {
      clearInterval(timer);
      link.classList.remove("is-busy");
      link.removeAttribute("aria-busy");
      document.cookie = `dl_${token}=; max-age=0; path=/`;
    }
  }, 300);
});

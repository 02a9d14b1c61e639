// 例会速報: 「コピー」 copies the text; 「共有」 hands the pictures (a card for each 16 players)
// and the text to the system's
// share sheet (LINE opens from it) where the browser can share files, else the text alone;
// where it cannot share at all, the button stays hidden and a note names download and copy;
// where it shares text but not files, a note says the picture is to be downloaded.
(() => {
  const box = document.getElementById("news");
  if (!box) return;
  const text = document.getElementById("news-text");
  const said = document.getElementById("news-said");
  const share = document.getElementById("news-share");
  const say = (words) => {
    said.textContent = words;
    said.hidden = false;
  };

  document.getElementById("news-copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text.value);
    } catch (error) {
      text.select(); // an older browser, or no permission: the old way
      document.execCommand("copy");
    }
    say(box.dataset.copied || "コピーしました");
  });

  if (!navigator.share) {
    document.getElementById("news-no-share").hidden = false; // download and copy only
    return;
  }
  share.hidden = false;
  const probe = new File([""], box.dataset.file, { type: "image/png" });
  if (!navigator.canShare || !navigator.canShare({ files: [probe] })) {
    document.getElementById("news-text-only").hidden = false;
  }
  share.addEventListener("click", async () => {
    try {
      const pictures = [...box.querySelectorAll("img.news-picture")];
      const files = await Promise.all(
        pictures.map(async (img) => {
          const response = await fetch(img.src, { credentials: "same-origin" });
          return new File([await response.blob()], img.dataset.file, { type: "image/png" });
        }),
      );
      if (navigator.canShare && navigator.canShare({ files })) {
        await navigator.share({ files, text: text.value });
      } else {
        await navigator.share({ text: text.value });
      }
    } catch (error) {
      if (error && error.name === "AbortError") return; // the person closed the share sheet
      say(box.dataset.failed || "共有できませんでした。画像を保存し、文章をコピーしてください。");
    }
  });
})();

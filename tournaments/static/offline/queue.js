// The lines a table typed while offline, kept in this browser (IndexedDB) until the server has them (issue 18).
// Shared by the entry page (offline/entry.js) and the service worker (offline/worker.js, through importScripts):
// a classic script that defines self.wiezenQueue, in a page as in a worker.
//
// A record: { key: the line's idempotency key, sheet: the entry page's path, seq: the order it was typed in,
// fields: [[name, value], ...] as the form posts them, state: "queued" | "conflict" | "refused" | "aside" |
// "differs", offline: the points the browser's engine gave it (or null), server: what the server said }.
(() => {
  const NAME = "wiezen-entry";
  const STORE = "lines";
  let opening = null;

  function open() {
    if (!opening) {
      opening = new Promise((resolve, reject) => {
        const request = indexedDB.open(NAME, 1);
        request.onupgradeneeded = () => {
          const store = request.result.createObjectStore(STORE, { keyPath: "key" });
          store.createIndex("sheet", "sheet");
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => {
          opening = null;
          reject(request.error);
        };
      });
    }
    return opening;
  }

  async function run(mode, work) {
    const db = await open();
    return new Promise((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      let result;
      const request = work(transaction.objectStore(STORE));
      if (request) request.onsuccess = () => { result = request.result; };
      transaction.oncomplete = () => resolve(result);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  }

  let last = 0;
  // Typing order, also for two lines kept in the same millisecond (or a clock set back meanwhile).
  function nextSeq(records) {
    const highest = records.reduce((max, r) => Math.max(max, r.seq), 0);
    last = Math.max(Date.now(), highest + 1, last + 1);
    return last;
  }

  self.wiezenQueue = {
    // The sheet's records in the order they were typed.
    async list(sheet) {
      const records = await run("readonly", (store) => store.index("sheet").getAll(sheet));
      return (records || []).sort((a, b) => a.seq - b.seq);
    },
    // Keep a new line at the end of the sheet's queue (a key already kept is left as it is: stored once).
    async add(sheet, fields, offline = null) {
      const key = (fields.find(([name]) => name === "idempotency_key") || [])[1];
      if (!key) throw new Error("a kept line needs its idempotency key");
      const seq = nextSeq(await this.list(sheet));
      const record = { key, sheet, seq, fields, state: "queued", offline, server: null, at: Date.now() };
      await run("readwrite", (store) => store.add(record)).catch((error) => {
        if (error && error.name !== "ConstraintError") throw error;
      });
      return record;
    },
    async put(record) {
      await run("readwrite", (store) => store.put(record));
    },
    // Change a kept record if it is still kept (never brings back one the server has since taken).
    async update(key, changes) {
      await run("readwrite", (store) => {
        const request = store.get(key);
        request.onsuccess = () => {
          if (request.result) store.put({ ...request.result, ...changes });
        };
      });
    },
    // Lines kept under the sheet's former paths (the competition was renamed since) join its queue, in the
    // order they were typed.
    async adopt(sheet, formerPaths) {
      for (const path of formerPaths) {
        for (const record of await this.list(path)) await this.update(record.key, { sheet });
      }
    },
    async remove(key) {
      await run("readwrite", (store) => store.delete(key));
    },
  };
})();

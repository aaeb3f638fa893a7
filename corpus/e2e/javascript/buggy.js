"use strict";
// probity end-to-end program: show a list of words. buggy: the words run together; fixed: comma-separated.

function displayList(words) {
    const joined = words.join("");
    return joined;
}

function main() {
    const shown = displayList(["alpha", "beta", "gamma"]);
    const sink = process.env.GSD_DEBUG_PROBE_SINK ? "set" : "unset";
    console.log("E2E-OUTPUT list=[" + shown + "] sink=" + sink);
}

main();

// --pre-js of the wasm module: the JS functions the per-message EM_JS imports
// call (js_actor.cpp mr_deliver, js_value.cpp mr_slots_release, js_priority.cpp
// mr_rank), kept in variables of the module's own scope. Reading a property of
// Module (a large object in dictionary mode) per message cost more than the
// call it forwarded. wasm/js/hooks.js and value_slab.js install them.
var mrDeliverImpl = null;
var mrDeliverNumberImpl = null;
var mrReleaseManyImpl = null;
var mrRankImpl = null;
var mrRankNumberImpl = null;
Module['mrSetHotImports'] = function (imports) {
  if (imports.deliver) mrDeliverImpl = imports.deliver;
  if (imports.deliverNumber) mrDeliverNumberImpl = imports.deliverNumber;
  if (imports.releaseMany) mrReleaseManyImpl = imports.releaseMany;
  if (imports.rank) mrRankImpl = imports.rank;
  if (imports.rankNumber) mrRankNumberImpl = imports.rankNumber;
};

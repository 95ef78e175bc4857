/*
 * lofi-daemon.js — the Max side of fcpd's lofi domain.
 *
 * Load it in Max's [v8] (Max 9) or legacy [js] object, wired as
 *     [udpreceive 7400] -> [v8 lofi-daemon.js] -> [udpsend 127.0.0.1 7401]
 * (see lofi-daemon.maxpat). There is no [route]: udpreceive turns every OSC message into a Max
 * message whose selector is the OSC address, so the address arrives here as `messagename` and
 * the single string argument (the JSON payload) in `arguments`.
 *
 * Protocol (one OSC message per request, one per reply):
 *   request  address "/lofi/<verb>", ONE string argument = JSON object, usually with "requestId"
 *   reply    address "/lofi/reply",  ONE string argument = JSON
 *            {"status":"ok"|"error", "requestId":<echoed>, ...fields | "message":"why"}
 *   Verbs: init create remove wire unwire ui inject map unmap set move device ping.
 *   A payload with "undo": true undoes an earlier request (or compensates a failed batch); it
 *   is handled like any other and its reply says "undo": true.
 *   Requests run in arrival order. While a /lofi/ui batch is being built (one layer per 20 ms),
 *   later requests wait for it, except /lofi/ping which is answered at once.
 *   Every request is all-or-nothing: on error nothing stays changed in Max (a failed /lofi/ui
 *   part removes the layers it had created before replying).
 *
 * Max constraints respected here:
 *   - ES5 only, no modules, no require/import: the same file runs in [js] (ES5) and [v8].
 *   - The device is a subpatcher made with this.patcher.newdefault(10, 10, "p", name) and then
 *     box.subpatcher(); never `new Patcher()` (that opens a detached top-level window that Max
 *     for Live cannot save). Its window is brought forward with targetPatcher.wind.bringtofront().
 *   - newdefault() ignores size: patching_rect is set afterwards; UI layers also get
 *     `presentation 1` and `presentation_rect`. Box attributes go through setboxattr() when the
 *     Maxobj has it (Max 6+), otherwise through message().
 *   - Objects are remembered by id in a registry, and the id is also the box's varname so
 *     getnamed() and Max's own scripting can find them.
 *   - A layer made after layers with a higher z prefix (by an earlier request) is put behind
 *     them: they are brought to the front again with patcher.bringtofront, in z order.
 *   - A UI batch is built by a Task, one layer every 20 ms, so Max can redraw between objects;
 *     the Task lives in the GLOBAL `uiTask` (a Task only referenced from a local variable can be
 *     garbage-collected mid-batch). Creation order is z-order, so layers are created in
 *     ascending numeric-prefix order ("00_bg" before "30_dial"; no prefix = 50; stable).
 *   - Code is never sent over UDP: /lofi/inject carries an absolute file path and the target
 *     [v8]/[js] receives message("compile", path).
 *   - Max's JS bridge turns a whole number into an int atom, so `/ 100.` made from the numbers
 *     [100] would divide integers. /lofi/create carries the box text as the file saves it; when
 *     it holds a float written without a fraction ("100.", "1.0", "2e2") the object is made
 *     from that text with the patcher's script newobject, so Max parses the float itself.
 *   - A box of a device fcpd opened from a file comes as the file saved it: /lofi/create (or a
 *     /lofi/ui layer) carries its 'maxclass', its 'text', its other saved attributes in 'box',
 *     and for a subpatcher its contents in 'patcher' ({boxes: [{maxclass, text, attrs,
 *     patcher}], lines: [[from, outlet, to, inlet]]}). Such a box, and any message, comment,
 *     live.comment or textedit with text, is made with script newobject, which sets the
 *     attributes as Max does when it loads a file and parses the text (commas, $1, floats).
 *     The boxes inside are found by a temporary varname, then get their own back. /lofi/map
 *     may carry the 'shortname' the file gives (else it is derived from the name).
 *   - Live parameter attributes are set with Max's scripting names (_parameter_longname …);
 *     parameter_mmin and parameter_mmax, saved apart, are the two ends of _parameter_range.
 *     The value an attribute had before its first set is remembered, so that "unset": true
 *     (the undo of a first set) can restore it.
 *   - Max truncates symbols at 32 767 characters: a payload that reaches that length was cut and
 *     is refused; every string handed to Max and every reply is checked against the limit.
 *   - Helper functions are marked `.local = 1` so a stray Max message cannot call them.
 */

inlets = 1;
outlets = 1;
autowatch = 0;

var DAEMON_VERSION = "1.0.0";
var PROTOCOL_VERSION = 1;
var REPLY_ADDRESS = "/lofi/reply";
var MAX_SYMBOL_LENGTH = 32767;
var UI_INTERVAL_MS = 20;
var DEFAULT_Z = 50;
var MAX_DEFERRED = 1000;
var DEVICE_BOX_X = 10;
var DEVICE_BOX_Y = 10;

// Box (not object) attributes: they must be set with setboxattr, a plain message to a non-UI
// object would be "doesn't understand".
var BOX_ATTRS = {
    patching_rect: 1, presentation: 1, presentation_rect: 1, hidden: 1, background: 1,
    ignoreclick: 1, annotation: 1, hint: 1, fontname: 1, fontsize: 1, fontface: 1, color: 1,
    patching_position: 1, presentation_position: 1
};
var TEXT_CLASSES = { message: 1, comment: 1, "live.comment": 1, textedit: 1 };
var SCRIPT_CLASSES = { v8: 1, js: 1, "v8ui": 1, jsui: 1 };

var self = this;
var devices = null;     // Dict name -> device record (see makeDevice)
var device = null;      // the current target device
var uiTask = null;      // GLOBAL on purpose: keeps the Task alive while a batch is built
var uiTaskRunning = false;
var uiJob = null;       // the /lofi/ui part being built
var innerCount = 0;     // temporary names of the boxes a subpatcher is filled with
var uiArrival = null;   // {parts, lastPart} of the multi-part batch being received
var uiRun = null;       // {parts, failedPart} of the multi-part batch being executed
var workQueue = [];     // requests waiting behind a UI batch, in arrival order
var layerSeq = 0;       // creation order of UI layers (their z-order within one prefix)

// ---------------------------------------------------------------------------------------------
// Small utilities

// A map with no prototype pitfalls (ids such as "__proto__" or "constructor" are fine).
function Dict() {
    this.items = {};
    this.size = 0;
}
Dict.prototype.has = function (key) {
    return Object.prototype.hasOwnProperty.call(this.items, "#" + key);
};
Dict.prototype.get = function (key) {
    return this.has(key) ? this.items["#" + key] : undefined;
};
Dict.prototype.set = function (key, value) {
    if (!this.has(key)) this.size++;
    this.items["#" + key] = value;
};
Dict.prototype.remove = function (key) {
    if (!this.has(key)) return false;
    delete this.items["#" + key];
    this.size--;
    return true;
};
Dict.prototype.keys = function () {
    var out = [];
    for (var k in this.items) {
        if (Object.prototype.hasOwnProperty.call(this.items, k)) out.push(k.substring(1));
    }
    return out;
};

devices = new Dict();

// Thrown by handlers for errors the sender can act on; becomes {status:"error", message}.
function LofiError(message) {
    this.message = message;
}

function fail(message) {
    throw new LofiError(message);
}

function isPlainObject(v) {
    return v !== null && typeof v === "object" && !Array.isArray(v);
}

function isFiniteNumber(v) {
    return typeof v === "number" && isFinite(v);
}

function quote(s) {
    return "'" + String(s) + "'";
}

function listSome(keys, max) {
    if (keys.length === 0) return "(none)";
    var shown = keys.slice(0, max).join(", ");
    return keys.length > max ? shown + ", ... (" + keys.length + " in all)" : shown;
}

function checkSymbol(s, what) {
    if (s.length > MAX_SYMBOL_LENGTH) {
        fail(what + " is " + s.length + " characters; Max truncates symbols at " +
             MAX_SYMBOL_LENGTH + " characters");
    }
    return s;
}

// ---------------------------------------------------------------------------------------------
// Payload validation

function reqString(req, key, what) {
    var v = req[key];
    if (typeof v !== "string" || v.length === 0) {
        fail("'" + key + "' (" + what + ") must be a non-empty string");
    }
    return checkSymbol(v, "'" + key + "'");
}

function reqNumber(req, key, fallback) {
    var v = req[key];
    if (v === undefined && fallback !== undefined) return fallback;
    if (!isFiniteNumber(v)) fail("'" + key + "' must be a finite number, got " + JSON.stringify(v));
    return v;
}

function reqPositive(req, key, fallback) {
    var v = reqNumber(req, key, fallback);
    if (v <= 0) fail("'" + key + "' must be greater than 0, got " + v);
    return v;
}

function reqIndex(req, key) {
    var v = req[key];
    if (typeof v !== "number" || Math.floor(v) !== v || v < 0) {
        fail("'" + key + "' must be an integer >= 0 (0 is the leftmost " +
             (key === "outlet" ? "outlet" : "inlet") + "), got " + JSON.stringify(v));
    }
    return v;
}

function reqClass(req, key) {
    var cls = reqString(req, key, "Max class name, e.g. 'cycle~' or 'live.dial'");
    if (/\s/.test(cls)) {
        fail("'" + key + "' must be one Max class name without spaces, got " + quote(cls) +
             " (put arguments in 'args')");
    }
    return cls;
}

// Atoms Max can carry: numbers and symbols. Booleans become 1/0.
function toAtom(v, what) {
    if (typeof v === "boolean") return v ? 1 : 0;
    if (isFiniteNumber(v)) return v;
    if (typeof v === "string") return checkSymbol(v, what);
    fail(what + " must be a number, string or boolean, got " + JSON.stringify(v));
}

function toAtoms(value, what) {
    var list = Array.isArray(value) ? value : [value];
    var out = [];
    for (var i = 0; i < list.length; i++) out.push(toAtom(list[i], what + "[" + i + "]"));
    return out;
}

function reqArgs(req, key) {
    var v = req[key];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) fail("'" + key + "' must be an array of numbers/strings");
    return toAtoms(v, "'" + key + "'");
}

function checkBoxText(cls, args) {
    var text = cls;
    for (var i = 0; i < args.length; i++) text += " " + String(args[i]);
    checkSymbol(text, "the box text of " + quote(cls));
}

function reqAttrName(name, what) {
    if (typeof name !== "string" || !/^[A-Za-z_][A-Za-z0-9_.~\-]*$/.test(name)) {
        fail(what + " must be an attribute name like 'bgcolor' or 'presentation_rect', got " +
             JSON.stringify(name));
    }
    if (name === "varname") {
        fail("'varname' is managed by the daemon (it is the object's id); use remove + create " +
             "to rename");
    }
    return name;
}

function reqAttrs(req, key) {
    var v = req[key];
    if (v === undefined || v === null) return [];
    if (!isPlainObject(v)) fail("'" + key + "' must be an object {attribute: value}");
    var out = [];
    for (var name in v) {
        if (!Object.prototype.hasOwnProperty.call(v, name)) continue;
        reqAttrName(name, "attribute " + JSON.stringify(name));
        if (v[name] === null || isPlainObject(v[name])) {
            fail("attribute '" + name + "' needs a number, string or list value");
        }
        out.push({ name: name, values: toAtoms(v[name], "attribute '" + name + "'") });
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Replies

function reply(requestId, status, fields) {
    var obj = { status: status };
    if (requestId !== undefined) obj.requestId = requestId;
    if (fields) {
        for (var k in fields) {
            if (Object.prototype.hasOwnProperty.call(fields, k)) obj[k] = fields[k];
        }
    }
    var text = JSON.stringify(obj);
    if (text.length > MAX_SYMBOL_LENGTH) {
        var shortObj = { status: "error" };
        if (requestId !== undefined) shortObj.requestId = requestId;
        shortObj.message = "reply of " + text.length + " characters exceeds Max's symbol limit (" +
            MAX_SYMBOL_LENGTH + "); the request was " + (status === "ok" ? "done" : "not done");
        text = JSON.stringify(shortObj);
    }
    outlet(0, REPLY_ADDRESS, text);
}

function replyOk(requestId, fields) {
    reply(requestId, "ok", fields);
}

function replyError(requestId, message, address) {
    var fields = { message: message };
    if (address !== undefined) fields.address = address;
    reply(requestId, "error", fields);
}

// ---------------------------------------------------------------------------------------------
// Device and registry

function makeDevice(name, box, patcher, width, height) {
    return {
        name: name, box: box, patcher: patcher, width: width, height: height,
        registry: new Dict(),   // id -> {id, obj, cls, kind, x, y, w, h, args, script}
        wires: new Dict(),      // wireKey -> {sourceId, outlet, destId, inlet}
        mappings: new Dict()    // parameter -> mapping record
    };
}

function requireDevice() {
    if (!device) fail("no device yet: send /lofi/init {\"deviceName\":\"...\"} first");
    if (device.box && device.box.valid === false) {
        fail("the device subpatcher " + quote(device.name) + " was deleted in Max; " +
             "send /lofi/init again");
    }
    return device;
}

function lookup(dev, id, role) {
    if (typeof id !== "string" || id.length === 0) {
        fail(role + " id must be a non-empty string, got " + JSON.stringify(id));
    }
    var rec = dev.registry.get(id);
    if (!rec) {
        fail("unknown " + role + " id " + quote(id) + " in device " + quote(dev.name) +
             "; known ids: " + listSome(dev.registry.keys(), 12));
    }
    if (rec.obj.valid === false) {
        forget(dev, id);
        fail("object " + quote(id) + " no longer exists in Max (deleted by hand?); it has been " +
             "dropped from the registry");
    }
    return rec;
}

// Drops an id and everything that refers to it; returns what was dropped.
function forget(dev, id) {
    dev.registry.remove(id);
    var wires = dev.wires.keys();
    var wiresRemoved = 0;
    for (var i = 0; i < wires.length; i++) {
        var w = dev.wires.get(wires[i]);
        if (w.sourceId === id || w.destId === id) {
            dev.wires.remove(wires[i]);
            wiresRemoved++;
        }
    }
    var params = dev.mappings.keys();
    var unmapped = [];
    for (var j = 0; j < params.length; j++) {
        if (dev.mappings.get(params[j]).objectId === id) {
            dev.mappings.remove(params[j]);
            unmapped.push(params[j]);
        }
    }
    return { wiresRemoved: wiresRemoved, unmapped: unmapped };
}

function callMethod(obj, method, list) {
    return obj[method].apply(obj, list);
}

function setAttr(obj, name, values) {
    if (BOX_ATTRS[name] === 1 && typeof obj.setboxattr === "function") {
        callMethod(obj, "setboxattr", [name].concat(values));
    } else {
        callMethod(obj, "message", [name].concat(values));
    }
}

// Creates a box in the device patcher; refuses (and removes) the broken box Max makes for an
// unknown class so that a typo is an error, not a dashed red box.
function newObject(dev, x, y, cls, args) {
    checkBoxText(cls, args);
    var p = dev.patcher;
    var obj = callMethod(p, "newdefault", [x, y, cls].concat(args));
    if (!obj) fail("Max could not create " + quote(cls) + " (newdefault returned nothing)");
    if (obj.maxclass === "newobj" && cls !== "newobj") {
        p.remove(obj);
        fail("Max does not know the class " + quote(cls) + " or rejected its arguments " +
             JSON.stringify(args) + " (the box came out broken and was removed); check the " +
             "spelling, e.g. 'cycle~' with the tilde");
    }
    return obj;
}

// The box text of a /lofi/create: a newobj's is its class and arguments ("/ 100."); a message
// or comment box's text is its content.
function reqText(req, cls) {
    if (typeof req.text !== "string") fail("'text' must be the box text, a string");
    checkSymbol(req.text, "'text'");
    if (TEXT_CLASSES[cls] !== 1 && req.text !== cls && req.text.indexOf(cls + " ") !== 0) {
        fail("'text' " + quote(req.text) + " must start with the class " + quote(cls));
    }
    return req.text;
}

// True when the text holds a float written without a fraction ("100.", "1.0", "2e2"), which
// the numbers of 'args' would hand to Max as an int.
function needsText(text) {
    var atoms = text.split(/\s+/);
    for (var i = 1; i < atoms.length; i++) {
        var atom = atoms[i];
        if (/^[-+]?(\d+\.\d*|\.\d+|\d+(\.\d*)?[eE][-+]?\d+)$/.test(atom) &&
            Math.floor(Number(atom)) === Number(atom)) {
            return true;
        }
    }
    return false;
}

// Makes an object box from its text, which Max parses into typed atoms, with the patcher's
// script newobject; the varname finds the new box.
function newObjectFromText(dev, x, y, cls, text, id) {
    var p = dev.patcher;
    callMethod(p, "message", ["script", "newobject", "newobj", "@text", text, "@varname", id,
                              "@patching_position", x, y]);
    var obj = typeof p.getnamed === "function" ? p.getnamed(id) : null;
    if (!obj) fail("Max could not create " + quote(text) + " from its text");
    if (obj.maxclass === "newobj") {
        p.remove(obj);
        fail("Max does not know the class " + quote(cls) + " or rejected the text " +
             quote(text) + " (the box came out broken and was removed)");
    }
    return obj;
}

// Sets the text of message and comment boxes, which newdefault may leave empty.
function setBoxText(obj, cls, args) {
    if (TEXT_CLASSES[cls] === 1 && args.length > 0) callMethod(obj, "message", ["set"].concat(args));
}

// ---------------------------------------------------------------------------------------------
// Boxes as a patcher file saved them (/lofi/create and /lofi/ui for opened devices)

// The box class a request names ('maxclass': "newobj", "message", "live.dial" …), or undefined.
function reqMaxclass(req, where) {
    if (req.maxclass === undefined) return undefined;
    if (typeof req.maxclass !== "string" || !/^[A-Za-z0-9_.~\-]+$/.test(req.maxclass)) {
        fail(where + "'maxclass' must be a box class like newobj or live.dial, got " +
             JSON.stringify(req.maxclass));
    }
    return req.maxclass;
}

// A subpatcher's contents as /lofi/create carries them: {classnamespace?, boxes: [{maxclass,
// text?, attrs, patcher?}], lines: [[source index, outlet, destination index, inlet]]}.
function reqContents(raw, where) {
    if (!isPlainObject(raw) || !Array.isArray(raw.boxes) || !Array.isArray(raw.lines)) {
        fail(where + " must be {boxes: [...], lines: [...]}");
    }
    var boxes = [];
    for (var i = 0; i < raw.boxes.length; i++) {
        var at = where + ".boxes[" + i + "]";
        var b = raw.boxes[i];
        if (!isPlainObject(b)) fail(at + " must be an object");
        var maxclass = reqMaxclass(b, at + " ");
        if (maxclass === undefined) fail(at + " has no 'maxclass'");
        if (b.text !== undefined && typeof b.text !== "string") fail(at + ".text must be a string");
        if (b.text !== undefined) checkSymbol(b.text, at + ".text");
        var attrs = [];
        if (b.attrs !== undefined) {
            if (!isPlainObject(b.attrs)) fail(at + ".attrs must be an object {attribute: value}");
            for (var name in b.attrs) {
                if (!Object.prototype.hasOwnProperty.call(b.attrs, name)) continue;
                if (!/^[A-Za-z_][A-Za-z0-9_.~\-]*$/.test(name) || b.attrs[name] === null ||
                    isPlainObject(b.attrs[name])) {
                    fail(at + ".attrs." + name + " must be an attribute with atoms");
                }
                attrs.push({ name: name, values: toAtoms(b.attrs[name], at + ".attrs." + name) });
            }
        }
        boxes.push({ maxclass: maxclass, text: b.text, attrs: attrs,
                     patcher: b.patcher === undefined ? null : reqContents(b.patcher, at + ".patcher") });
    }
    var lines = [];
    for (var j = 0; j < raw.lines.length; j++) {
        var l = raw.lines[j];
        if (!Array.isArray(l) || l.length !== 4 || !isIndex(l[0]) || !isIndex(l[1]) ||
            !isIndex(l[2]) || !isIndex(l[3]) || l[0] >= boxes.length || l[2] >= boxes.length) {
            fail(where + ".lines[" + j + "] must be [source index, outlet, destination index, " +
                 "inlet] of its " + boxes.length + " boxes");
        }
        lines.push(l);
    }
    var space = typeof raw.classnamespace === "string" ? raw.classnamespace : "box";
    return { boxes: boxes, lines: lines, space: space };
}

function isIndex(v) {
    return typeof v === "number" && Math.floor(v) === v && v >= 0;
}

// Makes a box as a patcher file describes it, with the patcher's script newobject: Max sets the
// attributes as when it loads a file and parses the text into typed atoms ("/ 100." keeps its
// float, "hidden 0, bang" its comma). `varname` finds the new box. A newobj whose class Max
// does not know comes out broken and is removed (not in gen code, whose boxes are operators).
function newBoxFromSpec(p, maxclass, text, varname, attrs, checkClass) {
    var list = ["script", "newobject", maxclass];
    if (text !== undefined && text !== "") list.push("@text", text);
    list.push("@varname", varname);
    for (var i = 0; i < attrs.length; i++) list = list.concat(["@" + attrs[i].name], attrs[i].values);
    callMethod(p, "message", list);
    var obj = typeof p.getnamed === "function" ? p.getnamed(varname) : null;
    if (!obj) fail("Max could not create " + quote(text === undefined ? maxclass : text));
    if (checkClass !== false && maxclass === "newobj" && obj.maxclass === "newobj") {
        p.remove(obj);
        fail("Max does not know the class of " + quote(text) + " (the box came out broken and " +
             "was removed); an abstraction must be in Max's search path");
    }
    return obj;
}

// Sets Live parameter attributes (parameter_longname …) by their scripting names; mmin and mmax
// are the two ends of _parameter_range.
function applyParameters(obj, parameters) {
    var range = null;
    for (var i = 0; i < parameters.length; i++) {
        var message = parameterMessage(parameters[i].name);
        if (message === "_parameter_range") {
            if (!range) range = [undefined, undefined];
            range[/mmin$/.test(parameters[i].name) ? 0 : 1] = parameters[i].values[0];
        } else {
            callMethod(obj, "message", [message].concat(parameters[i].values));
        }
    }
    if (!range) return;
    var current = readAttr(obj, "_parameter_range");
    if (range[0] === undefined) range[0] = Array.isArray(current) ? current[0] : 0;
    if (range[1] === undefined) range[1] = Array.isArray(current) ? current[1] : 127;
    callMethod(obj, "message", ["_parameter_range"].concat(range));
}

// Fills the subpatcher of `box` with the boxes and lines of `contents`, as its file saved them;
// each box gets back its own varname (or none) once made. Returns the number of boxes made.
function buildContents(box, contents, where) {
    var sub = typeof box.subpatcher === "function" ? box.subpatcher() : null;
    if (!sub) fail(where + ": the box has no subpatcher to hold its " + contents.boxes.length + " boxes");
    var made = [];
    var count = 0;
    // A file lists its boxes front to back (the newest first): they are made from the last, so
    // that each lands in front of the ones behind it, as when Max loads the file.
    for (var i = contents.boxes.length - 1; i >= 0; i--) {
        var spec = contents.boxes[i];
        var own = "";
        var creation = [];
        var parameters = [];
        for (var j = 0; j < spec.attrs.length; j++) {
            var a = spec.attrs[j];
            if (a.name === "varname") {
                own = String(a.values[0]);
            } else if (parameterMessage(a.name)) {
                parameters.push(a);
            } else {
                creation.push(a);
            }
        }
        innerCount++;
        var obj = newBoxFromSpec(sub, spec.maxclass, spec.text, "lofi_inner_" + innerCount,
                                 creation, contents.space === "box");
        obj.varname = own;
        applyParameters(obj, parameters);
        count++;
        if (spec.patcher) count += buildContents(obj, spec.patcher, where + ".boxes[" + i + "]");
        made[i] = obj;
    }
    for (var k = 0; k < contents.lines.length; k++) {
        var l = contents.lines[k];
        sub.connect(made[l[0]], l[1], made[l[2]], l[3]);
    }
    return count;
}

// The attributes a box is made with: its file's ('box'), then its patching rectangle.
function creationAttrs(boxAttrs, x, y, w, h) {
    var attrs = boxAttrs.slice();
    if (w !== undefined && h !== undefined) {
        attrs.push({ name: "patching_rect", values: [x, y, w, h] });
    } else {
        attrs.push({ name: "patching_position", values: [x, y] });
    }
    return attrs;
}

function currentSize(rec) {
    if (rec.w !== undefined && rec.h !== undefined) return [rec.w, rec.h];
    var r = rec.obj.rect;
    if (r && r.length === 4) return [r[2] - r[0], r[3] - r[1]];
    return null;
}

function wireKey(sourceId, outlet, destId, inlet) {
    return JSON.stringify([sourceId, outlet, destId, inlet]);
}

function varnameOf(obj) {
    try {
        return obj ? obj.varname : undefined;
    } catch (e) {
        return undefined;
    }
}

// What Max itself says about a cord, via Maxobj.patchcords (Max 8.1+): true, false, or null
// when this Max cannot tell.
function cordExists(src, outlet, dst, inlet) {
    var cords;
    try {
        cords = src.obj.patchcords;
    } catch (e) {
        return null;
    }
    if (!cords || !Array.isArray(cords.outputs)) return null;
    for (var i = 0; i < cords.outputs.length; i++) {
        var c = cords.outputs[i];
        if (c.srcoutlet === outlet && c.dstinlet === inlet &&
            (c.dstobject === dst.obj || varnameOf(c.dstobject) === dst.id)) {
            return true;
        }
    }
    return false;
}

function describeWire(w) {
    return quote(w.sourceId) + " outlet " + w.outlet + " -> " + quote(w.destId) + " inlet " +
        w.inlet;
}

// ---------------------------------------------------------------------------------------------
// Handlers. Each returns the reply fields, or null when the reply comes later (UI batches).

function handleInit(req) {
    var name = reqString(req, "deviceName", "the device name");
    var width = reqPositive(req, "width", 600);
    var height = reqPositive(req, "height", 400);
    reqSettings(req);
    var host = self.patcher;
    if (!host) fail("this script is not inside a patcher (this.patcher is missing)");

    // Re-init of a name starts that device afresh (this is what a full sync relies on). The box
    // varname also finds a device box left over from before the script was reloaded.
    var boxName = "lofi_device_" + name.replace(/[^A-Za-z0-9_.\-]/g, "_");
    var replaced = false;
    var old = devices.get(name);
    var oldBox = old ? old.box : (typeof host.getnamed === "function" ? host.getnamed(boxName) : null);
    if (oldBox && oldBox.valid !== false) {
        host.remove(oldBox);
        replaced = true;
    }
    var box = host.newdefault(DEVICE_BOX_X, DEVICE_BOX_Y, "p", name);
    if (!box) fail("Max could not create the subpatcher [p " + name + "]");
    var target = box.subpatcher();
    if (!target) {
        host.remove(box);
        fail("[p " + name + "] has no subpatcher; is 'p' shadowed by an abstraction named p?");
    }
    try {
        box.varname = boxName;
        target.wind.size = [width, height];
        target.wind.visible = 1;
        target.wind.bringtofront();
    } catch (e) {
        post("lofi-daemon: could not show the device window: " + e + "\n");
    }

    device = makeDevice(name, box, target, width, height);
    devices.set(name, device);
    var fields = { device: name, width: width, height: height, replaced: replaced };
    applySettings(device, req, fields);
    return fields;
}

// Checks the device settings a request gives, before anything changes.
function reqSettings(req) {
    if (req.openinpresentation !== undefined) {
        var presentation = reqNumber(req, "openinpresentation");
        if (presentation !== 0 && presentation !== 1) {
            fail("'openinpresentation' must be 0 or 1, got " + presentation);
        }
    }
    if (req.devicewidth !== undefined && reqNumber(req, "devicewidth") < 0) {
        fail("'devicewidth' must be 0 or more, got " + req.devicewidth);
    }
}

// The device's own settings (openinpresentation, devicewidth) are attributes of its patcher;
// width and height size its window. Each one given (checked by reqSettings) is applied and
// named in `fields`.
function applySettings(dev, req, fields) {
    if (req.openinpresentation !== undefined) {
        setPatcherAttr(dev.patcher, "openinpresentation", req.openinpresentation);
        // Show the view the device opens in.
        callMethod(dev.patcher, "message", ["presentation", req.openinpresentation]);
        fields.openinpresentation = req.openinpresentation;
    }
    if (req.devicewidth !== undefined) {
        setPatcherAttr(dev.patcher, "devicewidth", req.devicewidth);
        fields.devicewidth = req.devicewidth;
    }
}

function setPatcherAttr(p, name, value) {
    if (typeof p.setattr === "function") {
        p.setattr(name, value);
    } else {
        callMethod(p, "message", [name, value]);
    }
}

function handleDevice(req) {
    var dev = requireDevice();
    reqSettings(req);
    var fields = { device: dev.name };
    if (req.width !== undefined || req.height !== undefined) {
        var width = reqPositive(req, "width", dev.width);
        var height = reqPositive(req, "height", dev.height);
        dev.patcher.wind.size = [width, height];
        dev.width = width;
        dev.height = height;
        fields.width = width;
        fields.height = height;
    }
    applySettings(dev, req, fields);
    if (req.undo === true) fields.undo = true;
    return fields;
}

function handleCreate(req) {
    var dev = requireDevice();
    var id = reqString(req, "id", "the new object's id");
    if (dev.registry.has(id)) {
        fail("duplicate id " + quote(id) + ": an object with this id already exists (" +
             dev.registry.get(id).cls + "); remove it first or choose another id");
    }
    var cls = reqClass(req, "class");
    var x = reqNumber(req, "x");
    var y = reqNumber(req, "y");
    var args = reqArgs(req, "args");
    var hasSize = req.width !== undefined || req.height !== undefined;
    var w = hasSize ? reqPositive(req, "width") : undefined;
    var h = hasSize ? reqPositive(req, "height") : undefined;
    var text = req.text === undefined ? undefined : reqText(req, cls);
    var maxclass = reqMaxclass(req, "");
    var boxAttrs = reqAttrs(req, "box");
    var contents = req.patcher === undefined ? null : reqContents(req.patcher, "'patcher'");
    // As its file saved it (opened devices), or a text box's text as Max parses it.
    var asSaved = maxclass !== undefined || boxAttrs.length > 0 || contents !== null ||
        (text !== undefined && text !== "" && TEXT_CLASSES[cls] === 1);

    var obj;
    if (asSaved) {
        obj = newBoxFromSpec(dev.patcher, maxclass || (TEXT_CLASSES[cls] === 1 ? cls : "newobj"),
                             text, id, creationAttrs(boxAttrs, x, y, w, h));
    } else {
        obj = text !== undefined && needsText(text) ? newObjectFromText(dev, x, y, cls, text, id)
                                                    : newObject(dev, x, y, cls, args);
    }
    var inside = 0;
    try {
        obj.varname = id;
        if (hasSize && !asSaved) setAttr(obj, "patching_rect", [x, y, w, h]);
        if (!asSaved) setBoxText(obj, cls, args);
        if (contents) inside = buildContents(obj, contents, "'patcher'");
    } catch (e) {
        dev.patcher.remove(obj);
        throw e;
    }
    dev.registry.set(id, { id: id, obj: obj, cls: cls, kind: "object", x: x, y: y, w: w, h: h,
                           args: args, originals: new Dict() });
    var fields = { id: id, "class": cls, maxclass: obj.maxclass };
    if (text !== undefined) fields.text = text;
    if (contents) fields.inside = inside;
    if (req.undo === true) fields.undo = true;
    return fields;
}

function handleRemove(req) {
    var dev = requireDevice();
    var id = reqString(req, "id", "the object's id");
    var rec = lookup(dev, id, "object");
    dev.patcher.remove(rec.obj);
    var dropped = forget(dev, id);
    return { id: id, wiresRemoved: dropped.wiresRemoved, unmapped: dropped.unmapped };
}

function wireRequest(req) {
    var dev = requireDevice();
    var src = lookup(dev, req.sourceId, "source");
    var dst = lookup(dev, req.destId, "destination");
    var w = { sourceId: src.id, outlet: reqIndex(req, "outlet"), destId: dst.id,
              inlet: reqIndex(req, "inlet") };
    return { dev: dev, src: src, dst: dst, wire: w, key: wireKey(w.sourceId, w.outlet, w.destId,
                                                                  w.inlet) };
}

function handleWire(req) {
    var r = wireRequest(req);
    var w = r.wire;
    var fields = { sourceId: w.sourceId, outlet: w.outlet, destId: w.destId, inlet: w.inlet };
    var inMax = cordExists(r.src, w.outlet, r.dst, w.inlet);
    if (inMax === true || (inMax === null && r.dev.wires.has(r.key))) {
        r.dev.wires.set(r.key, w);
        fields.note = "already connected";
        return fields;
    }
    r.dev.patcher.connect(r.src.obj, w.outlet, r.dst.obj, w.inlet);
    if (cordExists(r.src, w.outlet, r.dst, w.inlet) === false) {
        fail("Max refused the connection " + describeWire(w) + ": " + quote(w.sourceId) + " (" +
             r.src.cls + ") may have no outlet " + w.outlet + ", " + quote(w.destId) + " (" +
             r.dst.cls + ") no inlet " + w.inlet + ", or a signal outlet cannot feed that inlet");
    }
    r.dev.wires.set(r.key, w);
    return fields;
}

function handleUnwire(req) {
    var r = wireRequest(req);
    var w = r.wire;
    var inMax = cordExists(r.src, w.outlet, r.dst, w.inlet);
    var tracked = r.dev.wires.has(r.key);
    var fields = { sourceId: w.sourceId, outlet: w.outlet, destId: w.destId, inlet: w.inlet };
    if (!tracked && inMax !== true) {
        fail("no patch cord " + describeWire(w) + "; wires from " + quote(w.sourceId) + ": " +
             listSome(wiresOf(r.dev, w.sourceId), 8));
    }
    r.dev.wires.remove(r.key);
    if (inMax === false) {
        fields.note = "the cord was already gone in Max";
        return fields;
    }
    r.dev.patcher.disconnect(r.src.obj, w.outlet, r.dst.obj, w.inlet);
    return fields;
}

function wiresOf(dev, id) {
    var keys = dev.wires.keys();
    var out = [];
    for (var i = 0; i < keys.length; i++) {
        var w = dev.wires.get(keys[i]);
        if (w.sourceId === id) out.push(w.outlet + "->" + w.destId + ":" + w.inlet);
    }
    return out;
}

function handleInject(req) {
    var dev = requireDevice();
    var rec = lookup(dev, req.targetId, "target");
    var path = reqString(req, "filePath", "absolute path of a .js file");
    if (/[\r\n]/.test(path) || path.length > 4096) {
        fail("'filePath' must be a file path, not code: code is never sent over UDP");
    }
    if (!/^(\/|[A-Za-z]:[\\\/]|[^\/\\:]+:\/)/.test(path)) {
        fail("'filePath' must be absolute (e.g. /Users/me/engine.js), got " + quote(path));
    }
    if (!/\.m?js$/i.test(path)) fail("'filePath' must name a .js file, got " + quote(path));
    var cls = rec.obj.maxclass || rec.cls;
    if (SCRIPT_CLASSES[cls] !== 1) {
        fail("inject needs a v8 or js object; " + quote(rec.id) + " is a " + cls);
    }
    rec.obj.message("compile", path);
    rec.script = path;
    return { targetId: rec.id, file: path };
}

function parameterShortname(parameter) {
    var m = /\[([^\]]+)\]$/.exec(parameter);
    return m ? m[1] : parameter;
}

function handleMap(req) {
    var dev = requireDevice();
    var parameter = reqString(req, "parameter", "the Live parameter name, e.g. live.dial[cutoff]");
    var rec = lookup(dev, req.objectId, "object");
    var property = req.property === undefined ? "value" : reqString(req, "property",
                                                                    "the property, e.g. value");
    var existing = dev.mappings.get(parameter);
    if (existing && existing.objectId !== rec.id) {
        fail("parameter " + quote(parameter) + " is already mapped to " + quote(existing.objectId) +
             "; send /lofi/unmap first");
    }
    if (existing) {
        return { parameter: parameter, objectId: rec.id, property: existing.property,
                 longname: existing.longname, note: "already mapped" };
    }
    var params = dev.mappings.keys();
    for (var i = 0; i < params.length; i++) {
        if (dev.mappings.get(params[i]).objectId === rec.id) {
            fail("object " + quote(rec.id) + " is already the parameter " + quote(params[i]) +
                 " (an object has one parameter name); unmap it first");
        }
    }
    var cls = rec.obj.maxclass || rec.cls;
    var isLive = cls.indexOf("live.") === 0;
    if (!isLive && typeof rec.obj.getattrnames === "function") {
        var names = rec.obj.getattrnames();
        if (Array.isArray(names) && names.length > 0 && names.indexOf("parameter_enable") < 0) {
            fail(quote(rec.id) + " (" + cls + ") cannot be a Live parameter: it has no " +
                 "parameter_enable attribute; map a live.* or UI object instead");
        }
    }
    var previous;
    if (typeof rec.obj.getattr === "function") {
        try {
            previous = rec.obj.getattr("_parameter_longname");
        } catch (e) {
            previous = undefined;
        }
    }
    var longname = parameter;
    // The short name the device's file gives (an opened device), else derived from the name.
    var shortname = req.shortname === undefined
        ? checkSymbol(parameterShortname(parameter), "the short name")
        : reqString(req, "shortname", "the parameter's short name");
    if (!isLive) rec.obj.message("parameter_enable", 1);
    rec.obj.message("_parameter_longname", longname);
    rec.obj.message("_parameter_shortname", shortname);
    dev.mappings.set(parameter, {
        parameter: parameter, objectId: rec.id, property: property, longname: longname,
        shortname: shortname, enabledByUs: !isLive,
        previousLongname: typeof previous === "string" ? previous : undefined
    });
    return { parameter: parameter, objectId: rec.id, property: property, longname: longname,
             shortname: shortname };
}

function handleUnmap(req) {
    var dev = requireDevice();
    var parameter = reqString(req, "parameter", "the mapped parameter name");
    var m = dev.mappings.get(parameter);
    if (!m) {
        fail("parameter " + quote(parameter) + " is not mapped; mapped parameters: " +
             listSome(dev.mappings.keys(), 12));
    }
    var rec = dev.registry.get(m.objectId);
    if (rec && rec.obj.valid !== false) {
        if (m.previousLongname) rec.obj.message("_parameter_longname", m.previousLongname);
        if (m.enabledByUs) rec.obj.message("parameter_enable", 0);
    }
    dev.mappings.remove(parameter);
    return { parameter: parameter, objectId: m.objectId };
}

// What an attribute is now, or undefined when this Max cannot tell.
function readAttr(obj, name) {
    try {
        if (BOX_ATTRS[name] === 1 && typeof obj.getboxattr === "function") {
            return obj.getboxattr(name);
        }
        if (typeof obj.getattr === "function") return obj.getattr(name);
    } catch (e) {
        return undefined;
    }
    return undefined;
}

// The Max message for a saved attribute name: Live parameter attributes go by their scripting
// names; parameter_mmin and parameter_mmax are the ends of _parameter_range.
function parameterMessage(name) {
    var bare = name.charAt(0) === "_" ? name.substring(1) : name;
    if (bare.indexOf("parameter_") !== 0 || bare === "parameter_enable") return null;
    if (bare === "parameter_mmin" || bare === "parameter_mmax") return "_parameter_range";
    return "_" + bare;
}

function currentValue(rec, name) {
    var message = parameterMessage(name);
    if (message === "_parameter_range") {
        var range = readAttr(rec.obj, message);
        if (!Array.isArray(range) || range.length !== 2) return undefined;
        return [/mmin$/.test(name) ? range[0] : range[1]];
    }
    var value = readAttr(rec.obj, message || name);
    if (value === undefined || value === null) return undefined;
    return Array.isArray(value) ? value : [value];
}

// Sets attribute `name` of a registry record, remembering the value it had before fcp first
// set it.
function applyAttr(rec, name, values) {
    if (!rec.originals) rec.originals = new Dict();
    if (!rec.originals.has(name)) rec.originals.set(name, currentValue(rec, name));
    var message = parameterMessage(name);
    if (message === "_parameter_range") {
        var range = readAttr(rec.obj, message);
        if (!Array.isArray(range) || range.length !== 2) {
            fail("cannot set " + name + " of " + quote(rec.id) + ": Max did not say its " +
                 "_parameter_range, whose other end it needs");
        }
        range = range.slice();
        range[/mmin$/.test(name) ? 0 : 1] = values[0];
        callMethod(rec.obj, "message", [message].concat(range));
    } else if (message) {
        callMethod(rec.obj, "message", [message].concat(values));
    } else {
        setAttr(rec.obj, name, values);
    }
    if (name === "patching_rect" && values.length === 4) {
        rec.x = values[0];
        rec.y = values[1];
        rec.w = values[2];
        rec.h = values[3];
    }
}

function handleSet(req) {
    var dev = requireDevice();
    var rec = lookup(dev, req.id, "object");
    var attr = reqAttrName(req.attr, "'attr'");
    var fields = { id: rec.id, attr: attr };
    if (req.unset === true) {
        // Back to the value from before fcp set it (the undo of a first set).
        var original = rec.originals ? rec.originals.get(attr) : undefined;
        if (original === undefined) {
            fail("cannot restore " + attr + " of " + quote(rec.id) + ": its value before fcp " +
                 "set it is unknown here (set after this daemon was loaded?); set it with a value");
        }
        applyAttr(rec, attr, original);
        fields.value = original.length === 1 ? original[0] : original;
        fields.restored = true;
    } else {
        if (req.value === undefined || req.value === null || isPlainObject(req.value)) {
            fail("'value' must be a number, string, boolean or list, got " +
                 JSON.stringify(req.value));
        }
        applyAttr(rec, attr, toAtoms(req.value, "'value'"));
        fields.value = req.value;
    }
    if (req.undo === true) fields.undo = true;
    return fields;
}

function handleMove(req) {
    var dev = requireDevice();
    var rec = lookup(dev, req.id, "object");
    var x = reqNumber(req, "x");
    var y = reqNumber(req, "y");
    var view = req.view === undefined ? (rec.kind === "ui" ? "both" : "patching") : req.view;
    if (view !== "patching" && view !== "presentation" && view !== "both") {
        fail("'view' must be patching, presentation or both, got " + JSON.stringify(req.view));
    }
    var size = currentSize(rec);
    if (view !== "presentation") {
        if (size) setAttr(rec.obj, "patching_rect", [x, y, size[0], size[1]]);
        else setAttr(rec.obj, "patching_position", [x, y]);
        rec.x = x;
        rec.y = y;
    }
    if (view !== "patching") {
        if (!size) fail("cannot move " + quote(rec.id) + " in presentation: its size is unknown");
        setAttr(rec.obj, "presentation_rect", [x, y, size[0], size[1]]);
    }
    return { id: rec.id, x: x, y: y, view: view };
}

// The FNV-1a hash (32 bits, 8 hex digits) of the ids sorted and joined by "\n", over their UTF-8
// bytes: fcpd computes the same from its model and reports a difference (another session
// re-initialised Max, Max restarted) with "try: lofi_session sync".
function idsHash(ids) {
    var sorted = ids.slice().sort();
    var bytes = unescape(encodeURIComponent(sorted.join("\n")));
    var hash = 0x811c9dc5;
    for (var i = 0; i < bytes.length; i++) {
        hash ^= bytes.charCodeAt(i);
        // hash * 16777619 mod 2^32, without losing bits to doubles
        hash = (hash + (hash << 1) + (hash << 4) + (hash << 7) + (hash << 8) + (hash << 24)) >>> 0;
    }
    var hex = hash.toString(16);
    while (hex.length < 8) hex = "0" + hex;
    return hex;
}

function handlePing() {
    var layersPending = 0;
    if (uiJob) layersPending += uiJob.layers.length - uiJob.index;
    for (var i = 0; i < workQueue.length; i++) {
        if (workQueue[i].job) layersPending += workQueue[i].job.layers.length;
    }
    return {
        version: DAEMON_VERSION, protocol: PROTOCOL_VERSION,
        device: device ? device.name : null,
        devices: devices.keys(),
        objects: device ? device.registry.size : 0,
        hash: idsHash(device ? device.registry.keys() : []),
        wires: device ? device.wires.size : 0,
        mappings: device ? device.mappings.size : 0,
        uiPending: layersPending,
        queued: workQueue.length
    };
}

// ---------------------------------------------------------------------------------------------
// /lofi/ui: validated on arrival, built one layer per tick by the global Task.

function zPrefix(name) {
    var m = /^(\d+)/.exec(name);
    return m ? parseInt(m[1], 10) : DEFAULT_Z;
}

// Stable ascending sort by numeric prefix (Array.prototype.sort need not be stable in ES5).
function zSort(layers) {
    var decorated = [];
    for (var i = 0; i < layers.length; i++) {
        decorated.push({ z: zPrefix(layers[i].name), i: i, layer: layers[i] });
    }
    decorated.sort(function (a, b) { return a.z !== b.z ? a.z - b.z : a.i - b.i; });
    var out = [];
    for (var j = 0; j < decorated.length; j++) out.push(decorated[j].layer);
    return out;
}

function parseLayer(raw, index) {
    var where = "layers[" + index + "]";
    if (!isPlainObject(raw)) fail(where + " must be an object");
    try {
        var layer = {
            name: reqString(raw, "name", "the layer name, e.g. 30_rate_dial"),
            cls: reqClass(raw, "class"),
            x: reqNumber(raw, "x"),
            y: reqNumber(raw, "y"),
            w: reqPositive(raw, "width"),
            h: reqPositive(raw, "height"),
            args: reqArgs(raw, "args"),
            attrs: reqAttrs(raw, "attrs"),
            text: raw.text === undefined ? undefined : reqText(raw, reqClass(raw, "class")),
            maxclass: reqMaxclass(raw, ""),
            box: reqAttrs(raw, "box"),
            contents: raw.patcher === undefined ? null : reqContents(raw.patcher, "'patcher'")
        };
        checkBoxText(layer.cls, layer.args);
        return layer;
    } catch (e) {
        if (e instanceof LofiError) fail(where + ": " + e.message);
        throw e;
    }
}

function parseUi(req, requestId) {
    if (!Array.isArray(req.layers) || req.layers.length === 0) {
        fail("'layers' must be a non-empty array of {name,class,x,y,width,height,args,attrs}");
    }
    var hasParts = req.part !== undefined || req.parts !== undefined;
    var part = hasParts ? req.part : 1;
    var parts = hasParts ? req.parts : 1;
    if (typeof parts !== "number" || Math.floor(parts) !== parts || parts < 1 ||
        typeof part !== "number" || Math.floor(part) !== part || part < 1 || part > parts) {
        fail("'part' and 'parts' must be integers with 1 <= part <= parts, got part " +
             JSON.stringify(req.part) + " of " + JSON.stringify(req.parts));
    }
    var layers = [];
    var seen = new Dict();
    for (var i = 0; i < req.layers.length; i++) {
        var layer = parseLayer(req.layers[i], i);
        if (seen.has(layer.name)) fail("layer name " + quote(layer.name) + " appears twice");
        seen.set(layer.name, true);
        layers.push(layer);
    }
    return { requestId: requestId, layers: zSort(layers), index: 0, created: [], part: part,
             parts: parts };
}

// Arrival order of multi-part batches: part 1 starts one, each next part must follow.
function checkUiArrival(job) {
    if (job.part === 1) {
        uiArrival = job.parts > 1 ? { parts: job.parts, lastPart: 1 } : null;
        return;
    }
    if (!uiArrival || uiArrival.parts !== job.parts || uiArrival.lastPart !== job.part - 1) {
        var expected = uiArrival ? "part " + (uiArrival.lastPart + 1) + " of " + uiArrival.parts
                                 : "part 1 first";
        fail("/lofi/ui part " + job.part + " of " + job.parts + " arrived out of order; expected " +
             expected);
    }
    uiArrival.lastPart = job.part;
    if (job.part === job.parts) uiArrival = null;
}

// Starts a validated job (returns false when it was answered at once with an error).
function startUiJob(job) {
    if (job.part === 1) uiRun = { parts: job.parts, failedPart: 0 };
    if (job.part > 1 && uiRun && uiRun.failedPart > 0) {
        replyError(job.requestId, "skipped: part " + uiRun.failedPart + " of this /lofi/ui batch " +
                   "failed, so part " + job.part + " was not built", "/lofi/ui");
        return false;
    }
    var dev = device;
    for (var i = 0; i < job.layers.length; i++) {
        if (dev.registry.has(job.layers[i].name)) {
            markUiFailed(job);
            replyError(job.requestId, "duplicate id: layer " + quote(job.layers[i].name) +
                       " already exists in the device; nothing of this part was created",
                       "/lofi/ui");
            return false;
        }
    }
    uiJob = job;
    ensureTask();
    return true;
}

function markUiFailed(job) {
    if (uiRun && job.parts > 1) uiRun.failedPart = job.part;
}

function ensureTask() {
    if (!uiTask) {
        uiTask = new Task(uiTick, self);
        uiTask.interval = UI_INTERVAL_MS;
    }
    if (!uiTaskRunning) {
        uiTaskRunning = true;
        uiTask.repeat(-1, UI_INTERVAL_MS);
    }
}

function stopTask() {
    if (uiTask && uiTaskRunning) uiTask.cancel();
    uiTaskRunning = false;
}

function createLayer(dev, layer) {
    var asSaved = layer.maxclass !== undefined || layer.box.length > 0 || layer.contents !== null ||
        (layer.text !== undefined && layer.text !== "" && TEXT_CLASSES[layer.cls] === 1);
    var obj = asSaved
        ? newBoxFromSpec(dev.patcher, layer.maxclass || layer.cls, layer.text, layer.name,
                         creationAttrs(layer.box, layer.x, layer.y, layer.w, layer.h))
        : newObject(dev, layer.x, layer.y, layer.cls, layer.args);
    var rec = { id: layer.name, obj: obj, cls: layer.cls, kind: "ui", x: layer.x, y: layer.y,
                w: layer.w, h: layer.h, args: layer.args, originals: new Dict() };
    try {
        if (layer.contents) buildContents(obj, layer.contents, "'patcher'");
        obj.varname = layer.name;
        setAttr(obj, "patching_rect", [layer.x, layer.y, layer.w, layer.h]);
        setAttr(obj, "presentation", [1]);
        setAttr(obj, "presentation_rect", [layer.x, layer.y, layer.w, layer.h]);
        for (var i = 0; i < layer.attrs.length; i++) {
            applyAttr(rec, layer.attrs[i].name, layer.attrs[i].values);
        }
        if (!asSaved) setBoxText(obj, layer.cls, layer.args);
    } catch (e) {
        dev.patcher.remove(obj);
        throw e;
    }
    rec.seq = ++layerSeq;
    dev.registry.set(layer.name, rec);
    restack(dev, rec);
}

// Creation order is z-order, so a layer made after layers with a higher z prefix (by an earlier
// call) would cover them: those are brought to the front again, in their own z order, so that
// "01_bg2" lands behind the "30_…" dials made before it.
function restack(dev, made) {
    var z = zPrefix(made.id);
    var above = [];
    var ids = dev.registry.keys();
    for (var i = 0; i < ids.length; i++) {
        var rec = dev.registry.get(ids[i]);
        if (rec !== made && rec.kind === "ui" && zPrefix(rec.id) > z) above.push(rec);
    }
    above.sort(function (a, b) {
        var za = zPrefix(a.id), zb = zPrefix(b.id);
        return za !== zb ? za - zb : (a.seq || 0) - (b.seq || 0);
    });
    for (var j = 0; j < above.length; j++) {
        if (typeof dev.patcher.bringtofront === "function") dev.patcher.bringtofront(above[j].obj);
    }
}

// Runs every UI_INTERVAL_MS while there is UI work: creates exactly one layer per call.
function uiTick() {
    if (!uiJob) {
        drainQueue();
        return;
    }
    var job = uiJob;
    var dev = device;
    var layer = job.layers[job.index];
    try {
        createLayer(dev, layer);
    } catch (e) {
        var why = e instanceof LofiError ? e.message : "internal error: " + e;
        for (var i = job.created.length - 1; i >= 0; i--) {
            var rec = dev.registry.get(job.created[i]);
            if (rec) {
                dev.patcher.remove(rec.obj);
                dev.registry.remove(job.created[i]);
            }
        }
        uiJob = null;
        markUiFailed(job);
        replyError(job.requestId, "layer " + quote(layer.name) + " (" + (job.index + 1) + " of " +
                   job.layers.length + ") failed: " + why + "; the " + job.created.length +
                   " layer(s) already created by this message were removed", "/lofi/ui");
        drainQueue();
        return;
    }
    job.created.push(layer.name);
    job.index++;
    if (job.index < job.layers.length) return;
    uiJob = null;
    replyOk(job.requestId, { created: job.created.length, part: job.part, parts: job.parts,
                             first: job.created[0], last: job.created[job.created.length - 1] });
    drainQueue();
}

// Runs the requests that waited behind a UI job, up to the next UI job.
function drainQueue() {
    while (!uiJob && workQueue.length > 0) {
        var item = workQueue.shift();
        if (item.job) {
            if (!device) {
                replyError(item.job.requestId, "no device yet: send /lofi/init first", "/lofi/ui");
            } else {
                startUiJob(item.job);
            }
        } else {
            execute(item.address, item.req, item.requestId);
        }
    }
    if (!uiJob) stopTask();
}

function handleUi(req, requestId) {
    requireDevice();
    var job = parseUi(req, requestId);
    checkUiArrival(job);
    if (isBusy()) {
        workQueue.push({ address: "/lofi/ui", job: job });
    } else {
        startUiJob(job);
    }
    return null;
}

// ---------------------------------------------------------------------------------------------
// Dispatch

var HANDLERS = {
    "/lofi/init": handleInit,
    "/lofi/create": handleCreate,
    "/lofi/remove": handleRemove,
    "/lofi/wire": handleWire,
    "/lofi/unwire": handleUnwire,
    "/lofi/ui": handleUi,
    "/lofi/inject": handleInject,
    "/lofi/map": handleMap,
    "/lofi/unmap": handleUnmap,
    "/lofi/set": handleSet,
    "/lofi/move": handleMove,
    "/lofi/device": handleDevice,
    "/lofi/ping": handlePing
};

function knownAddresses() {
    var out = [];
    for (var k in HANDLERS) {
        if (Object.prototype.hasOwnProperty.call(HANDLERS, k)) out.push(k);
    }
    return out;
}

function isBusy() {
    return uiJob !== null || workQueue.length > 0;
}

// Finds a requestId in text that is not valid JSON (e.g. truncated at the symbol limit), so the
// error can still be matched to its request.
function salvageRequestId(raw) {
    var m = /"requestId"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?)/.exec(raw);
    if (!m) return undefined;
    try {
        return JSON.parse(m[1]);
    } catch (e) {
        return undefined;
    }
}

// Returns {req, requestId} or {error, requestId}.
function parseRequest(address, args) {
    if (args.length === 0) return { req: {}, requestId: undefined };
    if (args.length > 1) {
        return { requestId: salvageRequestId(args.join(" ")), error: "expected ONE string argument holding the JSON payload, got " +
                 args.length + " atoms; send the JSON as a single OSC string (Max splits raw " +
                 "text at commas and spaces)" };
    }
    var raw = args[0];
    if (typeof raw !== "string") {
        return { error: "the argument must be a JSON string, got the " + typeof raw + " " + raw };
    }
    var salvaged = salvageRequestId(raw);
    if (raw.length >= MAX_SYMBOL_LENGTH) {
        return { requestId: salvaged, error: "payload of " + raw.length + " characters reached " +
                 "Max's symbol limit (" + MAX_SYMBOL_LENGTH + ") and was probably truncated; " +
                 "split it (for /lofi/ui use part/parts)" };
    }
    var req;
    try {
        req = JSON.parse(raw);
    } catch (e) {
        return { requestId: salvaged, error: "payload is not valid JSON (" + e.message + "): " +
                 raw.substring(0, 80) };
    }
    if (!isPlainObject(req)) {
        return { requestId: salvaged, error: "payload must be a JSON object, got " +
                 (Array.isArray(req) ? "an array" : JSON.stringify(req)) };
    }
    var id = req.requestId;
    if (id !== undefined && typeof id !== "string" && !isFiniteNumber(id)) {
        return { error: "'requestId' must be a string or a number, got " + JSON.stringify(id) };
    }
    return { req: req, requestId: id };
}

function execute(address, req, requestId) {
    var result;
    try {
        result = HANDLERS[address](req, requestId);
    } catch (e) {
        if (e instanceof LofiError) {
            replyError(requestId, e.message, address);
        } else {
            post("lofi-daemon: internal error in " + address + ": " + e + "\n");
            replyError(requestId, "internal error in the Max daemon while handling " + address +
                       ": " + e, address);
        }
        return;
    }
    if (result !== null) replyOk(requestId, result);
}

function receive(address, args) {
    var parsed = parseRequest(address, args);
    if (parsed.error) {
        replyError(parsed.requestId, parsed.error, address);
        return;
    }
    if (!Object.prototype.hasOwnProperty.call(HANDLERS, address)) {
        replyError(parsed.requestId, "unknown address " + address + "; this daemon (" +
                   DAEMON_VERSION + ") knows " + knownAddresses().join(" "), address);
        return;
    }
    if (address === "/lofi/ui" || address === "/lofi/ping" || !isBusy()) {
        execute(address, parsed.req, parsed.requestId);
        return;
    }
    if (workQueue.length >= MAX_DEFERRED) {
        replyError(parsed.requestId, "busy: " + workQueue.length + " requests are already " +
                   "waiting for a UI batch; retry later", address);
        return;
    }
    workQueue.push({ address: address, req: parsed.req, requestId: parsed.requestId });
}

// ---------------------------------------------------------------------------------------------
// Max entry points

// Every OSC message from [udpreceive] lands here: the address is the message name.
function anything() {
    receive(messagename, Array.prototype.slice.call(arguments));
}

function bang() {
    var s = handlePing();
    post("lofi-daemon " + DAEMON_VERSION + ": device " + s.device + ", " + s.objects +
         " objects, " + s.wires + " wires, " + s.mappings + " mappings, " + s.uiPending +
         " UI layers pending\n");
}

function loadbang() {
    post("lofi-daemon " + DAEMON_VERSION + " ready: listening via [udpreceive 7400], " +
         "replying via [udpsend 127.0.0.1 7401]\n");
}

// Max calls this when the [v8]/[js] box is deleted or the script recompiled.
function notifydeleted() {
    stopTask();
    uiJob = null;
    workQueue = [];
}

(function hideHelpers(fns) {
    for (var i = 0; i < fns.length; i++) fns[i].local = 1;
})([Dict, LofiError, fail, isPlainObject, isFiniteNumber, quote, listSome, checkSymbol,
    reqString, reqNumber, reqPositive, reqIndex, reqClass, toAtom, toAtoms, reqArgs, checkBoxText,
    reqAttrName, reqAttrs, reply, replyOk, replyError, makeDevice, requireDevice, lookup, forget,
    callMethod, setAttr, newObject, setBoxText, currentSize, wireKey, varnameOf, cordExists,
    describeWire, handleInit, reqSettings, applySettings, setPatcherAttr, handleDevice, handleCreate, reqText,
    needsText, newObjectFromText, reqMaxclass, reqContents, isIndex, newBoxFromSpec,
    applyParameters, buildContents, creationAttrs, handleRemove, wireRequest, handleWire, handleUnwire,
    wiresOf, handleInject, parameterShortname, handleMap, handleUnmap, readAttr, parameterMessage,
    currentValue, applyAttr, handleSet, handleMove,
    idsHash, handlePing, zPrefix, zSort, parseLayer, parseUi, checkUiArrival, startUiJob, markUiFailed,
    ensureTask, stopTask, createLayer, restack, uiTick, drainQueue, handleUi, knownAddresses, isBusy,
    salvageRequestId, parseRequest, execute, receive]);

{
	"patcher" : {
		"fileversion" : 1,
		"appversion" : {
			"major" : 9,
			"minor" : 0,
			"revision" : 0,
			"architecture" : "x64",
			"modernui" : 1
		},
		"classnamespace" : "box",
		"rect" : [ 100, 100, 760, 420 ],
		"bglocked" : 0,
		"openinpresentation" : 0,
		"default_fontsize" : 12,
		"default_fontface" : 0,
		"default_fontname" : "Arial",
		"gridonopen" : 1,
		"gridsize" : [ 15, 15 ],
		"gridsnaponopen" : 1,
		"objectsnaponopen" : 1,
		"statusbarvisible" : 2,
		"toolbarvisible" : 1,
		"lefttoolbarpinned" : 0,
		"toptoolbarpinned" : 0,
		"righttoolbarpinned" : 0,
		"bottomtoolbarpinned" : 0,
		"toolbars_unpinned_last_save" : 0,
		"tallnewobj" : 0,
		"boxanimatetime" : 200,
		"enablehscroll" : 1,
		"enablevscroll" : 1,
		"devicewidth" : 0,
		"description" : "lofi-daemon: the Max side of fcpd's lofi tools (OSC over UDP, ports 7400 in / 7401 out)",
		"digest" : "",
		"tags" : "fcp lofi osc daemon",
		"style" : "",
		"subpatcher_template" : "",
		"assistshowspatchername" : 0,
		"boxes" : [
			{
				"box" : {
					"id" : "obj-1",
					"maxclass" : "newobj",
					"numinlets" : 1,
					"numoutlets" : 1,
					"outlettype" : [ "" ],
					"patching_rect" : [ 30, 225, 97, 22 ],
					"text" : "udpreceive 7400"
				}
			},
			{
				"box" : {
					"id" : "obj-2",
					"maxclass" : "newobj",
					"numinlets" : 1,
					"numoutlets" : 1,
					"outlettype" : [ "" ],
					"patching_rect" : [ 30, 270, 110, 22 ],
					"saved_object_attributes" : {
						"filename" : "lofi-daemon.js",
						"parameter_enable" : 0
					},
					"text" : "v8 lofi-daemon.js"
				}
			},
			{
				"box" : {
					"id" : "obj-3",
					"maxclass" : "newobj",
					"numinlets" : 1,
					"numoutlets" : 0,
					"patching_rect" : [ 30, 315, 137, 22 ],
					"text" : "udpsend 127.0.0.1 7401"
				}
			},
			{
				"box" : {
					"id" : "obj-4",
					"maxclass" : "comment",
					"numinlets" : 1,
					"numoutlets" : 0,
					"patching_rect" : [ 30, 15, 600, 20 ],
					"text" : "lofi-daemon: the Max side of fcpd's lofi tools",
					"fontface" : 1
				}
			},
			{
				"box" : {
					"id" : "obj-5",
					"maxclass" : "comment",
					"linecount" : 9,
					"numinlets" : 1,
					"numoutlets" : 0,
					"patching_rect" : [ 30, 40, 600, 150 ],
					"text" : "How to use: keep lofi-daemon.js in the same folder as this patch (or anywhere in Max's search path) and leave this patch open while fcpd runs. fcpd sends every request to UDP port 7400 as ONE OSC message: the address /lofi/<verb> and one string holding the JSON payload. There is no [route]: the address reaches the script as its message name. The script builds the device inside a [p NAME] subpatcher of this patch and answers each request on 127.0.0.1:7401 with /lofi/reply and one JSON string {status, requestId, ...}. Other ports: edit both boxes and use fcp \"connect port:N reply:M\". Max 8 or older: retype the middle box as [js lofi-daemon.js]. Test without Max: fcpd simulate-max. See README.md in this folder."
				}
			},
			{
				"box" : {
					"id" : "obj-6",
					"maxclass" : "comment",
					"numinlets" : 1,
					"numoutlets" : 0,
					"patching_rect" : [ 180, 225, 300, 20 ],
					"text" : "<- requests from fcpd (UDP port 7400)"
				}
			},
			{
				"box" : {
					"id" : "obj-7",
					"maxclass" : "comment",
					"numinlets" : 1,
					"numoutlets" : 0,
					"patching_rect" : [ 180, 270, 300, 20 ],
					"text" : "<- lofi-daemon.js: one handler per /lofi/ address"
				}
			},
			{
				"box" : {
					"id" : "obj-8",
					"maxclass" : "comment",
					"numinlets" : 1,
					"numoutlets" : 0,
					"patching_rect" : [ 180, 315, 300, 20 ],
					"text" : "<- replies to fcpd (127.0.0.1:7401)"
				}
			}
		],
		"lines" : [
			{
				"patchline" : {
					"destination" : [ "obj-2", 0 ],
					"source" : [ "obj-1", 0 ]
				}
			},
			{
				"patchline" : {
					"destination" : [ "obj-3", 0 ],
					"source" : [ "obj-2", 0 ]
				}
			}
		],
		"dependency_cache" : [ ],
		"autosave" : 0
	}
}

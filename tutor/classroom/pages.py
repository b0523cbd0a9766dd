"""The short pages class mode sends instead of a lesson, with no kernel started (``tutor.server.class_mode``'s lesson page
handler): a device with too many lesson pages open (``PAGES_PER_CLIENT``), and a lesson the teacher has not opened
yet (Pace). Both try again by themselves.
"""

DEVICE_FULL_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="30">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Too many lessons open</title>
<style>body{font-family:sans-serif;max-width:36em;margin:4em auto;padding:0 1em;color:#1a1a1a;line-height:1.5}
a{display:inline-block;margin-top:1em;padding:.5em 1.2em;background:#1f4e9c;color:#fff;border-radius:4px;
text-decoration:none}</style></head>
<body><h1>Too many lessons open</h1>
<p>This computer already has as many lessons open as it may. Close the lesson tabs you do not use, then try
again: this page tries again by itself.</p>
<a href="">Try again</a></body></html>
"""

NOT_OPEN_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="20">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Not open yet</title>
<style>body{font-family:sans-serif;max-width:36em;margin:4em auto;padding:0 1em;color:#1a1a1a;line-height:1.5}
a{display:inline-block;margin-top:1em;padding:.5em 1.2em;background:#1f4e9c;color:#fff;border-radius:4px;
text-decoration:none}</style></head>
<body><h1>Not open yet</h1>
<p>Your teacher opens this lesson later. This page opens it by itself then.</p>
<a href="{contents}">All lessons</a></body></html>
"""

"""PNG icons (for install prompts that want a bitmap) and an apple-touch-icon (iOS's home
screen), served as PNGs of exactly the sizes the manifest and the page declare."""
import json
import struct
import urllib.request

from selenium.webdriver.common.by import By


def png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
    width, height = struct.unpack(">II", data[16:24])
    return f"{width}x{height}"


def fetch(server, path):
    response = urllib.request.urlopen(server.base + path, timeout=10)
    return response.headers["Content-Type"], response.read()


def test_png_icons_and_the_apple_touch_icon_are_served_as_declared(server, browsers):
    kind, body = fetch(server, "/manifest.webmanifest")
    assert kind.startswith("application/manifest+json"), kind
    icons = json.loads(body)["icons"]
    pngs = [icon for icon in icons if icon["type"] == "image/png"]
    assert {(icon["sizes"], icon["purpose"]) for icon in pngs} >= {
        ("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")}
    for icon in pngs:
        kind, data = fetch(server, icon["src"])
        assert kind == "image/png", (icon["src"], kind)
        assert png_size(data) == icon["sizes"], icon

    # The page names the apple-touch-icon (iOS's home screen) and a PNG favicon.
    driver = browsers()
    driver.get(server.base + "/signin")
    touch = driver.find_element(By.CSS_SELECTOR, "link[rel='apple-touch-icon']")
    assert touch.get_attribute("sizes") == "180x180"
    kind, data = fetch(server, touch.get_attribute("href")[len(server.base):])
    assert kind == "image/png" and png_size(data) == "180x180"
    favicon = driver.find_element(By.CSS_SELECTOR, "link[rel='icon'][type='image/png']")
    kind, data = fetch(server, favicon.get_attribute("href")[len(server.base):])
    assert kind == "image/png" and png_size(data) == favicon.get_attribute("sizes")

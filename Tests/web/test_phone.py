"""The phone's details: a checkbox's label beside its box at every width; one row of header
on a phone and at 200 % zoom, with the current page's link in view."""
from selenium.webdriver.common.by import By

from helpers import sign_up, wait_for, wait_text
from phone_screens import PHONE, ZOOM_200, as_phone, header


# Each checkbox followed by its label, with where both are.
CHECKBOXES = """
return [...document.querySelectorAll('main input[type=checkbox] + label')].filter(l => l.offsetParent).map(label => {
  const box = label.previousElementSibling.getBoundingClientRect(), text = label.getBoundingClientRect();
  return {id: label.htmlFor, boxRight: box.right, boxTop: box.top, boxBottom: box.bottom, left: text.left, top: text.top};
});
"""


def test_checkbox_labels_stay_beside_their_boxes_and_the_header_is_one_row(server, browsers, shot):
    alice, bob = browsers(), browsers()
    sign_up(alice, server, "Alice", "Lovelace")
    sign_up(bob, server, "Bob", "Babbage")
    alice.get(server.base + "/contacts/add")
    link = alice.find_element(By.ID, "my-link").get_attribute("href")
    # The preview of a contact link has the longest labels: "Let me watch over Alice — I
    # would see their status and get their alerts".
    for metrics, name in ((PHONE, "390"), (ZOOM_200, "200pct")):
        as_phone(bob, metrics)
        bob.get(link)
        wait_text(bob, "Alice Lovelace")
        boxes = bob.execute_script(CHECKBOXES)
        assert len(boxes) >= 2, boxes
        for box in boxes:
            # The label starts right of its box, on the box's row (not wrapped under it).
            assert box["left"] >= box["boxRight"] and box["top"] < box["boxBottom"], (name, box)
        shot(bob, "contact_preview_checkboxes_" + name)

        # Every page's header: one row, at most a fifth of the screen, the current page's
        # link wholly in view even when the row scrolls.
        for path, current in (("/", "/"), ("/settings", "/settings"), ("/profile", "/profile")):
            bob.get(server.base + path)
            wait_for(bob, lambda d: d.find_elements(By.CSS_SELECTOR, "#nav a[aria-current=page]"))
            measured = header(bob)
            assert measured["rows"] == 1 and measured["height"] <= measured["viewport"] / 5, (name, path, measured)
            nav, link_box = bob.execute_script(
                "const n = document.getElementById('nav'), a = n.querySelector('a[aria-current=page]');"
                "return [n.getBoundingClientRect().toJSON(), a.getBoundingClientRect().toJSON()]")
            assert nav["left"] - 1 <= link_box["left"] and link_box["right"] <= nav["right"] + 1, (name, path, nav, link_box)
            assert bob.find_element(By.CSS_SELECTOR, "#nav a[aria-current=page]").get_attribute("href").endswith(current)
        shot(bob, "header_" + name)

// The lobby: choose players, bots, variants and a seed; get one link per human seat.
const seats = document.getElementById("seats");
const defaults = ["Ann", "Bo", "Cy", "Di"];

function seatRow(i) {
  const row = document.createElement("div");
  row.className = "seat-row";
  row.innerHTML = `<label>Seat ${i + 1} <input name="name" value="${defaults[i]}" maxlength="24"></label>
    <select name="bot"><option value="">Human</option><option value="random">Random bot</option>
    <option value="greedy">Greedy bot</option></select>`;
  if (i > 0) row.querySelector("select").value = "greedy";
  return row;
}

function setSeats(n) {
  while (seats.children.length < n) seats.append(seatRow(seats.children.length));
  while (seats.children.length > n) seats.lastChild.remove();
}
setSeats(2);
document.getElementById("add-seat").onclick = () => setSeats(Math.min(4, seats.children.length + 1));
document.getElementById("remove-seat").onclick = () => setSeats(Math.max(2, seats.children.length - 1));

const info = await (await fetch("/api/variants")).json();
const variants = document.getElementById("variants");
for (const variant of info.variants) {
  const label = document.createElement("label");
  label.innerHTML = `<input type="checkbox" name="variant"> <b></b> <span class="hint"></span>`;
  label.querySelector("input").value = variant.name;
  label.querySelector("b").textContent = variant.title;
  label.querySelector("span").textContent = variant.description;
  variants.append(label);
}

document.getElementById("create").onsubmit = async (event) => {
  event.preventDefault();
  const form = event.target;
  const seed = form.seed.value === "" ? null : Number(form.seed.value);
  const body = {
    players: [...seats.children].map((row) => ({
      name: row.querySelector("[name=name]").value,
      bot: row.querySelector("[name=bot]").value || null,
    })),
    variants: [...form.querySelectorAll("[name=variant]:checked")].map((box) => box.value),
    any_mean_house: form.any_mean_house.checked,
    refresh_ends_turn: form.refresh_ends_turn.checked,
    seed,
  };
  const response = await fetch("/api/games", { method: "POST", body: JSON.stringify(body) });
  const answer = await response.json();
  const error = document.getElementById("error");
  if (!response.ok) {
    error.textContent = answer.error;
    return;
  }
  error.textContent = "";
  const links = document.getElementById("links");
  links.replaceChildren();
  for (const seat of answer.seats) {
    const li = document.createElement("li");
    if (seat.link) {
      const url = new URL(seat.link, location.href).href;
      li.innerHTML = `<b></b>: <a class="seat-link" data-seat="${seat.seat}"></a>`;
      li.querySelector("b").textContent = seat.name;
      li.querySelector("a").href = url;
      li.querySelector("a").textContent = `play as ${seat.name}`;
      li.append(" ", Object.assign(document.createElement("code"), { textContent: url }));
    } else {
      li.textContent = `${seat.name}: ${seat.bot} bot`;
    }
    links.append(li);
  }
  const watch = document.createElement("li");
  watch.innerHTML = `Spectators: <a class="watch-link" href="${answer.watch}">watch the game</a>`;
  links.append(watch);
  document.getElementById("result").hidden = false;
};
